/**
 * A credential's declarative Test as n8n 2.41 runs it: CredentialsTester.runRequestTest (CLI,
 * services/credentials-tester.service.ts) puts the `test` request on a throw-away NoOp node, runs it
 * with n8n-core's RoutingNode in an ExecuteContext (httpRequestWithAuthentication, the credential's
 * generic authenticate, the form's data instead of the stored credential's), and words the outcome:
 * a `responseCode` rule's message for its status, else the status text, else the failure's code,
 * else its message.
 */
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, INode, INodeCredentialTestResult, INodeType } from 'n8n-workflow';

import type { Harness } from '../harness';
import { boot } from '../harness/env';

export async function runCredentialTest(h: Harness, data: ICredentialDataDecryptedObject, type: string): Promise<INodeCredentialTestResult> {
	const { core, workflow: wf } = boot();
	const testRequest = h.credentialTypes.getByName(type).test as ICredentialTestRequest;
	const nodeType = {
		description: {
			displayName: 'No Operation',
			name: 'n8n-nodes-base.noOp',
			group: ['organization'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' }],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		credentials: { [type]: { id: '1', name: 'AccessPoint account' } },
	};
	const nodeTypes = { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) };
	const workflow = new wf.Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: nodeTypes as never });
	const credentialsHelper = new Proxy(h.credentialsHelper, {
		get: (target, prop) => (prop === 'getDecrypted' ? async () => data : typeof target[prop] === 'function' ? target[prop].bind(target) : target[prop]),
	});
	const additionalData = {
		credentialsHelper,
		variables: {},
		executionId: 'test',
		userId: 'harness-user',
		restApiUrl: '',
		instanceBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		formWaitingBaseUrl: '',
	};
	const context = new core.ExecuteContext(
		workflow,
		node,
		additionalData as never,
		'internal',
		wf.createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new core.RoutingNode(context, nodeType, { id: '1', name: 'AccessPoint account', type, data }).runNode();
	} catch (caught) {
		const error = caught as { message: string; cause?: { response?: { status: number; statusText?: string }; code?: string } };
		const response = error.cause?.response;
		if (response) {
			const rule = (testRequest.rules ?? []).find((r) => r.type === 'responseCode' && r.properties.value === response.status);
			if (rule) return { status: 'Error', message: rule.properties.message };
			if (response.status < 199 || response.status > 299)
				return { status: 'Error', message: response.statusText || `Received HTTP status code: ${response.status}` };
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
