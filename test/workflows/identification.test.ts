import { generateUrlSignature, prepareUrlForSigning, WAITING_TOKEN_QUERY_PARAM } from 'n8n-core';
import { NodeApiError, NodeOperationError, Workflow } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { createRegistration } from '../../emulator/routes/registrations';
import { createHarness, request } from '../harness';
import type { Harness, HarnessResult, WorkflowJson } from '../harness';

const IDENT = 'n8n-nodes-access-point.accessPointIdentification';
const NOOP = 'n8n-nodes-base.noOp';
const TRIGGER = 'When clicking ‘Execute workflow’';
const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

interface LoggedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body?: IDataObject;
	status: number | null;
}

/** The node's error, checked to be a NodeApiError. */
function apiError(r: HarnessResult, nodeName: string): NodeApiError {
	const error: unknown = r.nodeError(nodeName);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

/** Trigger → Identify (Start and Wait for Result) → [Not Identified | Identified]. */
function startAndWaitWorkflow(parameters: IDataObject): WorkflowJson {
	return {
		name: 'Identify and branch',
		nodes: [
			{ name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{ name: 'Identify', type: IDENT, parameters: { operation: 'startAndWait', ...parameters } },
			{ name: 'Not Identified', type: NOOP, parameters: {} },
			{ name: 'Identified', type: NOOP, parameters: {} },
		],
		connections: {
			[TRIGGER]: { main: [[{ node: 'Identify', type: 'main', index: 0 }]] },
			Identify: {
				main: [[{ node: 'Not Identified', type: 'main', index: 0 }], [{ node: 'Identified', type: 'main', index: 0 }]],
			},
		},
	};
}

describe('Identification node against the emulator (waiting executions)', () => {
	let h: Harness;
	let counter = 0;

	/** A fresh entity under the master account (its own 5 sandbox attempts). */
	const newRegistration = (): number => {
		const reg = createRegistration(h.emulator.store, h.emulator.credentials.apiKey, {
			TaxIdentifier: 'BE0481516215',
			CompanyName: `Ident ${++counter} BV`,
			Email: `ident-${counter}@example.com`,
		});
		return reg.RegistrationID as number;
	};

	const startCalls = (): LoggedRequest[] => (h.emulator.requests as LoggedRequest[]).filter((r) => r.method === 'POST' && /\/identification$/.test(r.path));

	/**
	 * The provider URL as a user reaches it: the link of the waiting node's tooltip (the resume URL
	 * in the run's metadata), opened without a result, redirects there and leaves the run waiting.
	 */
	const waitingProviderUrl = async (r: HarnessResult): Promise<string> => {
		const link = String(r.task('Identify')?.metadata?.resumeUrl);
		const { response, result } = await h.resume(r, { url: link });
		expect([response.status, result]).toEqual([302, undefined]);
		return String(response.headers.location);
	};

	const registrationReads = (id: number): LoggedRequest[] =>
		(h.emulator.requests as LoggedRequest[]).filter((r) => r.method === 'GET' && r.path === `/v1/einvoices/registrations/${id}`);

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 0 }, waitTracker: false });
	});

	afterAll(async () => {
		await h?.close();
	});

	beforeEach(() => {
		h.emulator.clearRequests();
		h.emulator.config.identificationUrlField = 'RedirectURL';
	});

	it('success round trip: start → provider page → browser redirect to the resume URL → "Identified"', async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		expect(waiting.status).toBe('waiting');
		expect(waiting.waiting?.nodeName).toBe('Identify');
		const resumeUrl = waiting.waiting!.resumeUrl;

		// The request: master PartyID header, the one provider code, this execution's resume URL.
		const [call] = startCalls();
		expect(call.path).toBe(`/v1/einvoices/registrations/${id}/identification`);
		expect(call.headers.partyid).toBe(h.emulator.credentials.partyId);
		expect(call.body).toEqual({ IdentificationProviderTC: 'itsme', RedirectURL: resumeUrl });

		// While waiting, nothing is on either output (the canvas draws no item count on a branch),
		// and the run's metadata holds this execution's signed resume URL for the editor's tooltip.
		expect(waiting.outputs('Identify')).toEqual([[], []]);
		expect(waiting.task('Identify')?.metadata).toEqual({ resumeUrl });
		// Its link, opened without a result, leads to the provider page; the run keeps waiting.
		const providerUrl = await waitingProviderUrl(waiting);
		expect(providerUrl).toMatch(new RegExp(`^${h.emulator.url}/provider/`));
		expect(h.execution(waiting).status).toBe('waiting');
		// The 5-minute window plus the default extra wait of 60 s.
		const left = waiting.waiting!.waitTill.getTime() - Date.now();
		expect(left).toBeGreaterThan(5 * 60 * 1000);
		expect(left).toBeLessThanOrEqual(6 * 60 * 1000);

		const { status, location } = await h.emulator.provider.complete(providerUrl, 'success');
		expect(status).toBe(302);
		// The provider appends to the resume URL: after its `signature` query (n8n 2.x) or as the query (1.x).
		expect(location).toBe(`${resumeUrl}${resumeUrl.includes('?') ? '&' : '?'}registrationID=${id}&success=true`);

		const { response, result } = await h.resume(waiting, { url: location! });
		expect(response.status).toBe(200);
		expect(String(response.headers['content-type'])).toMatch(/text\/html/);
		expect(response.text).toContain('Identity confirmed');
		expect(result?.status).toBe('success');
		expect(result!.executed('Identified')).toBe(true);
		expect(result!.executed('Not Identified')).toBe(false);
		expect(result!.output('Identified')).toEqual([expect.objectContaining({ identified: true, success: true, reason: 'identified', RegistrationID: id })]);
		expect(h.emulator.store.registrations.get(id).Identified).toBe(true);
		// The browser's word, checked against the registration read (the emulator shows Identified).
		expect(result!.output('Identified')[0]).toMatchObject({ resultSource: 'browser redirect', serviceCheck: 'confirmed' });
		expect(registrationReads(id)).toHaveLength(1);
	});

	it("the editor's waiting tooltip links to the identity check: the run's signed resume URL, which sends the browser on to the provider", async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const resumeUrl = String(waiting.task('Identify')?.metadata?.resumeUrl);
		expect(resumeUrl).toBe(waiting.waiting!.resumeUrl);
		// As n8n 2.41's editor shows a waiting node (output pane and logs): the node type's
		// waitingNodeTooltip through the workflow's expression, $execution.resumeUrl from the run's metadata.
		const description = h.nodeTypes.getByNameAndVersion(IDENT, 1).description;
		const tooltip = (operation: string) => {
			const wf = startAndWaitWorkflow({ registrationId: byId(id), operation });
			const workflow = new Workflow({
				nodes: wf.nodes.map((n, i) => ({ id: String(i), typeVersion: 1, position: [0, 0], ...n })) as INode[],
				connections: wf.connections as never,
				active: false,
				nodeTypes: h.nodeTypes,
			});
			const execution = { id: String(waiting.executionId), mode: 'test' as const, resumeUrl, resumeFormUrl: '' };
			return String(
				workflow.expression.getSimpleParameterValue(workflow.getNode('Identify')!, description.waitingNodeTooltip!, 'internal', { $execution: execution }),
			);
		};
		const shown = tooltip('startAndWait');
		expect(/<a href="([^"]+)" target="_blank">Open the identity check<\/a>/.exec(shown)?.[1]).toBe(resumeUrl);
		// The link is also written out, to copy for the signatory, and says where it leads.
		expect(shown.endsWith(`or copy this link for them: ${resumeUrl}`)).toBe(true);
		expect(shown).toContain('(it goes on to the identity provider)');
		expect(tooltip('waitForResult')).toMatch(/providerUrl in the output of Start/);
		// Issue 39.15: the provider's page (the start answer's URL) and this execution's link, each in a <code> to copy, in
		// the waiting run's hint (the output pane shows it; the tooltip can only know n8n's link).
		const started = (h.emulator.requests as Array<{ method: string; path: string }>).filter((r) => r.method === 'POST' && r.path.endsWith('/identification'));
		expect(started.length).toBeGreaterThan(0);
		const hints = (waiting.task('Identify') as { hints?: Array<{ message: string }> } | undefined)?.hints ?? [];
		const codes = hints.flatMap((hint) => [...hint.message.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1]));
		expect(codes).toEqual([expect.stringMatching(new RegExp(`^${h.emulator.url}/provider/[0-9a-f]+$`)), resumeUrl.replace(/&/g, '&#38;')]);
		expect(hints[0].message).toMatch(
			/^Identity provider's page:<br><code>.*<\/code><br>This execution's link \(opens that page, then brings the result back\):<br><code>/,
		);

		const { response, result } = await h.resume(waiting, { url: resumeUrl });
		expect(result).toBeUndefined();
		expect(response.status).toBe(302);
		expect(String(response.headers.location)).toMatch(new RegExp(`^${h.emulator.url}/provider/[0-9a-f]+$`));
		expect(h.execution(waiting).status).toBe('waiting');
		// The provider's page is the one the user completes; its redirect then resumes the run.
		const { location } = await h.emulator.provider.complete(String(response.headers.location), 'success');
		expect((await h.resume(waiting, { url: location! })).result!.executed('Identified')).toBe(true);
	});

	it('a forged success (the resume URL with success=true, no identity check) is refused where the registration read shows the status', async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const forged = await h.resume(waiting, { query: { registrationID: id, success: 'true' } });
		expect(forged.response.text).toContain('Identity not confirmed');
		expect(forged.result!.executed('Identified')).toBe(false);
		expect(forged.result!.output('Not Identified')).toEqual([
			expect.objectContaining({
				identified: false,
				success: false,
				reason: 'not_confirmed',
				RegistrationID: id,
				resultSource: 'browser redirect',
				serviceCheck: 'contradicted',
			}),
		]);
		expect(registrationReads(id)).toHaveLength(1);
	});

	it("where the registration read shows no status (as published), a success stays the browser's word and says so", async () => {
		const id = newRegistration();
		// The published registration read has no identification field: the emulator's is removed.
		delete h.emulator.store.registrations.get(id).Identified;
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const claimed = await h.resume(waiting, { query: { registrationID: id, success: 'true' } });
		expect(claimed.result!.executed('Identified')).toBe(true);
		const [item] = claimed.result!.output('Identified');
		expect(item).toMatchObject({ identified: true, resultSource: 'browser redirect', serviceCheck: 'not shown' });
		expect(String(item.message)).toMatch(/shows nothing about identification.*anyone holding the resume URL can send it/);
	});

	it("a registration read that fails leaves the success as the browser's word, named in the output", async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const { location } = await h.emulator.provider.complete(await waitingProviderUrl(waiting), 'success');
		h.emulator.failNext(2, 503, { method: 'GET', pathPrefix: `/v1/einvoices/registrations/${id}` });
		const { result } = await h.resume(waiting, { url: location! });
		expect(result!.output('Identified')[0]).toMatchObject({ identified: true, serviceCheck: 'read failed' });
		expect(String(result!.output('Identified')[0].message)).toMatch(/could not be re-read .*503/);
	});

	it('failure round trip: the user cancels at the provider → "Not Identified" (reason failed)', async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const { location } = await h.emulator.provider.complete(await waitingProviderUrl(waiting), 'failure');
		expect(location).toMatch(/[?&]registrationID=\d+&success=false$/);

		const { response, result } = await h.resume(waiting, { url: location! });
		expect(response.status).toBe(200);
		expect(response.text).toContain('Identity not confirmed');
		expect(result!.status).toBe('success');
		expect(result!.executed('Identified')).toBe(false);
		expect(result!.output('Not Identified')).toEqual([expect.objectContaining({ identified: false, success: false, reason: 'failed', RegistrationID: id })]);
		expect(h.emulator.store.registrations.get(id).Identified).toBe(false);
	});

	it('expiry: a wait that times out leaves through "Not Identified" with reason expired, never "Identified"', async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }), {
			input: [{ identified: true, success: true, note: 'an upstream item that looks like a success' }],
		});
		expect(waiting.status).toBe('waiting');

		const expired = await h.expire(waiting);
		expect(expired.status).toBe('success');
		expect(expired.executed('Identified')).toBe(false);
		const out = expired.output('Not Identified');
		expect(out).toHaveLength(1);
		expect(out[0]).toMatchObject({ identified: false, success: false, reason: 'expired', RegistrationID: id });
		expect(out[0]).not.toHaveProperty('note');

		// A late browser redirect finds a finished execution.
		const resumeUrl = waiting.waiting!.resumeUrl;
		const late = await request(`${resumeUrl}${resumeUrl.includes('?') ? '&' : '?'}registrationID=${id}&success=true`);
		expect(late.status).toBe(409);
	});

	it('the resume URL still validates with registrationID and success appended (the way the waiting-webhook server checks it)', async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const { location } = await h.emulator.provider.complete(await waitingProviderUrl(waiting), 'success');
		const url = new URL(location!);

		// n8n 2.41 (not sendAndWait): the `signature` parameter is compared with the execution's resume token.
		const stored = h.execution(waiting).data as IDataObject;
		expect(url.pathname).toBe(`/webhook-waiting/${waiting.executionId}`);
		expect(url.searchParams.get(WAITING_TOKEN_QUERY_PARAM)).toBe(stored.resumeToken);
		expect(url.searchParams.get('registrationID')).toBe(String(id));
		expect(url.searchParams.get('success')).toBe('true');

		// Why not getSignedResumeUrl(): an HMAC over the whole query no longer matches once the provider appends to it.
		const signed = new URL(`${h.urls.webhookWaitingBaseUrl}/${waiting.executionId}/node-id`);
		signed.searchParams.set(WAITING_TOKEN_QUERY_PARAM, generateUrlSignature(prepareUrlForSigning(signed), 'hmac-secret'));
		const appended = new URL(`${signed.toString()}&registrationID=${id}&success=true`);
		expect(generateUrlSignature(prepareUrlForSigning(appended), 'hmac-secret')).not.toBe(appended.searchParams.get(WAITING_TOKEN_QUERY_PARAM));

		// A tampered token is refused and the execution keeps waiting.
		const tampered = new URL(location!);
		tampered.searchParams.set(WAITING_TOKEN_QUERY_PARAM, 'not-the-token');
		const refused = await h.resume(waiting, { url: tampered.toString() });
		expect(refused.response.status).toBe(401);
		expect(h.execution(waiting).status).toBe('waiting');

		const { result } = await h.resume(waiting, { url: location! });
		expect(result!.executed('Identified')).toBe(true);
	});

	it('a callback for another registration, or without a clear success, is not identified', async () => {
		const id = newRegistration();
		const first = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const mismatch = await h.resume(first, { query: { registrationID: id + 1000, success: 'true' } });
		expect(mismatch.response.text).toContain('Identity not confirmed');
		expect(mismatch.result!.executed('Identified')).toBe(false);
		expect(mismatch.result!.output('Not Identified')[0]).toMatchObject({ reason: 'registration_mismatch', identified: false });

		const second = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const odd = await h.resume(second, { query: { registrationID: id, success: 'yes' } });
		expect(odd.result!.executed('Identified')).toBe(false);
		expect(odd.result!.output('Not Identified')[0]).toMatchObject({ reason: 'invalid_callback', identified: false });
	});

	it('sends the browser on to a chosen URL with the accepted result appended', async () => {
		const id = newRegistration();
		const waiting = await h.run(startAndWaitWorkflow({ registrationId: byId(id), options: { resultRedirectUrl: 'https://app.example.test/done?from=n8n' } }));
		const { location } = await h.emulator.provider.complete(await waitingProviderUrl(waiting), 'success');
		const { response, result } = await h.resume(waiting, { url: location! });
		expect(response.status).toBe(302);
		expect(response.headers.location).toBe(`https://app.example.test/done?from=n8n&registrationID=${id}&success=true`);
		expect(result!.executed('Identified')).toBe(true);
	});

	it('TooManyTrials on the 6th attempt: the sandbox limit of 5 per entity', async () => {
		const id = newRegistration();
		for (let attempt = 1; attempt <= 5; attempt++) {
			const r = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
			expect(r.status).toBe('waiting');
		}
		const sixth = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		expect(sixth.status).toBe('error');
		const error = apiError(sixth, 'Identify');
		expect(error.httpCode).toBe('400');
		expect(error.context.apiCode).toBe('TooManyTrials');
		expect(error.message).toMatch(/TooManyTrials.*Too many attempts/);
		expect(error.description).toMatch(/sandbox allows 5 identification attempts per entity/);
		expect(startCalls().map((c) => c.status)).toEqual([200, 200, 200, 200, 200, 400]);
	});

	it('not whitelisted: the master account must ask support, quoting its PartyID', async () => {
		const other = h.emulator.otherAccount;
		const r = await h.run(startAndWaitWorkflow({ registrationId: byId(newRegistration()) }), {
			credentialsOverride: { apiKey: other.apiKey, partyId: other.partyId },
		});
		expect(r.status).toBe('error');
		const error = apiError(r, 'Identify');
		expect(error.httpCode).toBe('403');
		expect(error.description).toMatch(/not whitelisted for identification/);
		expect(error.description).toMatch(new RegExp(`PartyID ${other.partyId}\\) is not whitelisted.*Ask support`));
		expect(JSON.stringify(error)).not.toContain(other.apiKey);
	});

	it('401/404: the entity is not registered or not active, or the registration step was skipped', async () => {
		const unknown = await h.run(startAndWaitWorkflow({ registrationId: byId(987654) }));
		const notFound = apiError(unknown, 'Identify');
		expect(notFound.httpCode).toBe('404');
		expect(notFound.description).toMatch(/not registered or not active.*registration step was skipped/);

		const id = newRegistration();
		h.emulator.store.registrations.get(id).apiKey = h.emulator.otherAccount.apiKey;
		const foreign = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }));
		const unauthorized = apiError(foreign, 'Identify');
		expect(unauthorized.httpCode).toBe('401');
		expect(unauthorized.description).toMatch(/not registered or not active/);
	});

	it("Master Party ID overrides the credential's Party ID for the PartyID header", async () => {
		const id = newRegistration();
		const entityParty = h.emulator.store.registrations.get(id).PartyID as string;
		// Acting as the entity (not the master) is refused ...
		const asEntity = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }), { credentialsOverride: { partyId: entityParty } });
		expect(apiError(asEntity, 'Identify').description).toContain(`PartyID ${entityParty}`);
		// ... and the option puts the master's PartyID back.
		h.emulator.clearRequests();
		const asMaster = await h.run(startAndWaitWorkflow({ registrationId: byId(id), options: { masterPartyId: h.emulator.credentials.partyId } }), {
			credentialsOverride: { partyId: entityParty },
		});
		expect(asMaster.status).toBe('waiting');
		expect(startCalls()[0].headers.partyid).toBe(h.emulator.credentials.partyId);
	});

	it('refuses several items, and a bad final URL, before any request', async () => {
		const id = newRegistration();
		const many = await h.run(startAndWaitWorkflow({ registrationId: byId(id) }), { input: [{ a: 1 }, { a: 2 }] });
		expect(many.nodeError('Identify')).toBeInstanceOf(NodeOperationError);
		expect(many.nodeError('Identify')!.message).toMatch(/^Item 1: "Start and Wait for Result" handles one identification per execution/);

		const badUrl = await h.run(startAndWaitWorkflow({ registrationId: byId(id), options: { resultRedirectUrl: 'app.example.test/done' } }));
		expect(badUrl.nodeError('Identify')!.message).toBe('Item 0: "After the Result, Send Browser To" app.example.test/done is not an absolute URL');
		expect(startCalls()).toHaveLength(0);
	});

	it('continue on fail: a failed start leaves through "Not Identified" as an error item, without waiting', async () => {
		const wf = startAndWaitWorkflow({ registrationId: byId(987655) });
		(wf.nodes[1] as IDataObject).onError = 'continueRegularOutput';
		const r = await h.run(wf);
		expect(r.status).toBe('success');
		expect(r.executed('Identified')).toBe(false);
		expect(r.output('Not Identified')[0]).toMatchObject({ httpCode: '404' });
		expect(String(r.output('Not Identified')[0].error)).toMatch(/HTTP 404/);

		// "Continue (using error output)": the failure goes to the extra error output, not "Not Identified".
		const withErrorOutput = startAndWaitWorkflow({ registrationId: byId(987655) });
		(withErrorOutput.nodes[1] as IDataObject).onError = 'continueErrorOutput';
		withErrorOutput.nodes.push({ name: 'Failed', type: NOOP, parameters: {} });
		((withErrorOutput.connections.Identify as IDataObject).main as unknown[]).push([{ node: 'Failed', type: 'main', index: 0 }]);
		const routed = await h.run(withErrorOutput);
		expect(routed.status).toBe('success');
		expect(routed.executed('Not Identified')).toBe(false);
		expect(routed.executed('Identified')).toBe(false);
		expect(String(routed.output('Failed')[0].error)).toMatch(/HTTP 404/);
	});
});

describe('Identification: Start, then send the link, then Wait for Result (same execution)', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 0 }, waitTracker: false });
	});

	afterAll(async () => {
		await h?.close();
	});

	const linkThenWait = (registrationId: number): WorkflowJson => ({
		name: 'Start, e-mail, wait',
		nodes: [
			{ name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{ name: 'Start', type: IDENT, parameters: { operation: 'start', registrationId: byId(registrationId), redirectTo: 'thisExecution' } },
			// Stands in for the e-mail node: it receives providerUrl before anything waits.
			{ name: 'Send Link', type: NOOP, parameters: {} },
			{ name: 'Wait', type: IDENT, parameters: { operation: 'waitForResult' } },
			{ name: 'Not Identified', type: NOOP, parameters: {} },
			{ name: 'Identified', type: NOOP, parameters: {} },
		],
		connections: {
			[TRIGGER]: { main: [[{ node: 'Start', type: 'main', index: 0 }]] },
			Start: { main: [[{ node: 'Send Link', type: 'main', index: 0 }]] },
			'Send Link': { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
			Wait: { main: [[{ node: 'Not Identified', type: 'main', index: 0 }], [{ node: 'Identified', type: 'main', index: 0 }]] },
		},
	});

	it('the link is out before the wait, and the browser resumes the same execution', async () => {
		const reg = createRegistration(h.emulator.store, h.emulator.credentials.apiKey, { CompanyName: 'Two Step BV', Email: 'two@example.com' });
		const waiting = await h.run(linkThenWait(reg.RegistrationID));
		expect(waiting.status).toBe('waiting');
		expect(waiting.waiting?.nodeName).toBe('Wait');
		const link = waiting.output('Send Link')[0];
		expect(link).toMatchObject({ RegistrationID: reg.RegistrationID, redirectTo: 'thisExecution' });
		expect(link).not.toHaveProperty('redirectUrl');
		const sent = (h.emulator.requests as LoggedRequest[]).find((r) => /\/identification$/.test(r.path));
		expect(sent?.body?.RedirectURL).toBe(waiting.waiting!.resumeUrl);
		// The wait ends with the session's window (plus the margin), not with the Wait node's own start.
		expect(waiting.waiting!.waitTill.getTime()).toBe(Date.parse(String(link.expiresAt)) + 60 * 1000);

		// The resume URL opened without a result (nobody sent the link here) says where to start, and the run keeps waiting.
		const visit = await h.resume(waiting, { url: String(waiting.task('Wait')?.metadata?.resumeUrl) });
		expect([visit.response.status, visit.result]).toEqual([200, undefined]);
		expect(visit.response.text).toContain('Open your identification link');
		expect(waiting.outputs('Wait')).toEqual([[], []]);
		// Start's output gave both links; the waiting node adds no hint of its own (no provider page to name).
		expect((waiting.task('Wait') as { hints?: unknown[] } | undefined)?.hints ?? []).toEqual([]);

		const { location } = await h.emulator.provider.complete(String(link.providerUrl), 'success');
		const { response, result } = await h.resume(waiting, { url: location! });
		expect(response.text).toContain('Identity confirmed');
		expect(result!.executed('Identified')).toBe(true);
		expect(result!.output('Identified')[0]).toMatchObject({ identified: true, RegistrationID: reg.RegistrationID });
		// Wait for Result has no credential: nothing is re-read, and the item says so.
		expect(result!.output('Identified')[0]).toMatchObject({ resultSource: 'browser redirect', serviceCheck: 'not checked' });
		expect(String(result!.output('Identified')[0].message)).toMatch(/browser's word/);
	});

	it('expires through "Not Identified" too', async () => {
		const reg = createRegistration(h.emulator.store, h.emulator.credentials.apiKey, { CompanyName: 'Two Step 2 BV', Email: 'two2@example.com' });
		const waiting = await h.run(linkThenWait(reg.RegistrationID));
		const expired = await h.expire(waiting);
		expect(expired.executed('Identified')).toBe(false);
		expect(expired.output('Not Identified')[0]).toMatchObject({ reason: 'expired', identified: false, RegistrationID: reg.RegistrationID });
	});

	it('Wait for Result without a Start in this execution is a configuration error', async () => {
		const r = await h.runNode(IDENT, { operation: 'waitForResult' });
		expect(r.status).toBe('error');
		expect(r.nodeError(r.nodeName!)).toBeInstanceOf(NodeOperationError);
		expect(r.nodeError(r.nodeName!)!.message).toBe('No identification was started in this execution to wait for');
	});
});

describe('Identification: Start and Parse Callback', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 0 }, waitTracker: false });
	});

	afterAll(async () => {
		await h?.close();
	});

	beforeEach(() => {
		h.emulator.clearRequests();
	});

	it.each(['RedirectURL', 'URL'])('Start outputs the provider URL (answer field %s) and when the window closes', async (field) => {
		h.emulator.config.identificationUrlField = field;
		try {
			const reg = createRegistration(h.emulator.store, h.emulator.credentials.apiKey, { CompanyName: `Start ${field}`, Email: `s-${field}@example.com` });
			const r = await h.runNode(IDENT, {
				operation: 'start',
				registrationId: byId(reg.RegistrationID),
				redirectUrl: 'https://app.example.test/identified?ref=42',
			});
			r.assertSuccess();
			const [out] = r.output(r.nodeName!);
			expect(out).toMatchObject({
				RegistrationID: reg.RegistrationID,
				redirectUrl: 'https://app.example.test/identified?ref=42',
				IdentificationProviderTC: 'itsme',
				masterPartyId: h.emulator.credentials.partyId,
			});
			expect(String(out.providerUrl)).toMatch(new RegExp(`^${h.emulator.url}/provider/[0-9a-f]+$`));
			expect(Date.parse(String(out.expiresAt)) - Date.parse(String(out.startedAt))).toBe(5 * 60 * 1000);
			const sent = (h.emulator.requests as LoggedRequest[]).filter((x) => /\/identification$/.test(x.path));
			expect(sent).toHaveLength(1);
			expect(sent[0].body).toEqual({ IdentificationProviderTC: 'itsme', RedirectURL: 'https://app.example.test/identified?ref=42' });
		} finally {
			h.emulator.config.identificationUrlField = 'RedirectURL';
		}
	});

	it('a custom provider code is sent as given (and the emulator says which one it supports)', async () => {
		const reg = createRegistration(h.emulator.store, h.emulator.credentials.apiKey, { CompanyName: 'Custom', Email: 'c@example.com' });
		const r = await h.runNode(IDENT, {
			operation: 'start',
			registrationId: byId(reg.RegistrationID),
			redirectUrl: 'https://app.example.test/x',
			identificationProvider: 'custom',
			customProviderCode: 'newidp',
		});
		const error = apiError(r, r.nodeName!);
		expect(error.httpCode).toBe('400');
		expect(error.description).toMatch(/Identification Provider code/);
		expect((h.emulator.requests as LoggedRequest[]).find((x) => /identification$/.test(x.path))?.body?.IdentificationProviderTC).toBe('newidp');
	});

	it.each([
		['   ', 'Item 0: "Redirect URL" is empty'],
		['/identified', 'Item 0: "Redirect URL" /identified is not an absolute URL'],
		['ftp://app.example.test/x', 'Item 0: "Redirect URL" ftp://app.example.test/x uses ftp, not http(s)'],
	])('rejects the Redirect URL %p before the request', async (redirectUrl, message) => {
		const r = await h.runNode(IDENT, { operation: 'start', registrationId: byId(1), redirectUrl });
		const error: unknown = r.nodeError(r.nodeName!);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(message);
		expect((error as NodeOperationError).description).toMatch(/absolute web address/);
		expect(h.emulator.requests).toHaveLength(0);
	});

	it('Parse Callback sorts callbacks onto Identified / Not Identified', async () => {
		const r = await h.runNode(IDENT, { operation: 'parseCallback', options: { expectedRegistrationId: '5' } }, [
			{ query: { registrationID: '5', success: 'true' } },
			{ query: { registrationID: '5', success: 'false' } },
			{ query: { error: 'invalid_redirect' } },
			{ query: { registrationID: '6', success: 'true' } },
		]);
		r.assertSuccess();
		const [notIdentified, identified] = r.outputs(r.nodeName!);
		expect(identified).toEqual([
			expect.objectContaining({ identified: true, success: true, RegistrationID: 5, resultSource: 'browser redirect', serviceCheck: 'not checked' }),
		]);
		expect(notIdentified.every((i) => i.resultSource === 'browser redirect')).toBe(true);
		expect(notIdentified.map((i) => i.reason)).toEqual(['failed', 'invalid_redirect', 'registration_mismatch']);
		expect(r.items(r.nodeName!, 0).map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }]);
	});

	it('Parse Callback refuses data that is not a callback, naming the field and the item', async () => {
		const r = await h.runNode(IDENT, { operation: 'parseCallback' }, [{ query: { registrationID: '5', success: 'true' } }, { body: {} }]);
		const error = r.nodeError(r.nodeName!);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe('Item 1: "Callback Query" has no registrationID, success or error parameter');
	});
});
