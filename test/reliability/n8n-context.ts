/**
 * An execution context for driving the shared client (nodes/shared/http/transport.ts) outside
 * a workflow, with n8n-core's own HTTP client doing the requests: the credential's headers
 * are added from the data the client hands over (as n8n's generic authentication does), and
 * a failure is wrapped in a NodeApiError (as httpRequestWithAuthentication does).
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';

import type { ApiContext } from '../../nodes/shared/http/transport';
import { n8nHttpRequest } from './report';

export const probeNode: INode = { id: 'p', name: 'Probe', type: 'n8n-nodes-access-point.accessPointOrder', typeVersion: 1, position: [0, 0], parameters: {} };

export function n8nContext(credentials: IDataObject): ApiContext {
	const http = n8nHttpRequest();
	return {
		getNode: () => probeNode,
		getCredentials: async () => ({ ...credentials }),
		helpers: {
			async httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions, extra: { credentialsDecrypted: { data: IDataObject } }) {
				const { data } = extra.credentialsDecrypted;
				options.headers = { ...(options.headers ?? {}), apikey: String(data.apiKey), partyID: String(data.partyId) };
				try {
					return await http(options);
				} catch (error) {
					throw new NodeApiError(probeNode, error as never);
				}
			},
		},
	} as unknown as ApiContext;
}
