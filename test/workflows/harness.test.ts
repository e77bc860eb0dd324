import nock from 'nock';
import { NodeApiError, sleep } from 'n8n-workflow';

import { createHarness, fixtures, request } from '../harness';
import type { Harness, WorkflowJson } from '../harness';

const PKG = 'n8n-nodes-access-point';

const setNode = (name: string, assignments: Array<[string, string, string]>) => ({
	type: 'set',
	name,
	typeVersion: 3.4,
	parameters: {
		mode: 'manual',
		assignments: {
			assignments: assignments.map(([field, type, value], i) => ({ id: String(i), name: field, type, value })),
		},
		options: {},
	},
});

const ifNode = (name: string, leftValue: string, operation: string, rightValue: unknown) => ({
	type: 'if',
	name,
	typeVersion: 2.2,
	parameters: {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
			conditions: [{ id: 'c1', leftValue, rightValue, operator: { type: 'number', operation } }],
			combinator: 'and',
		},
		options: {},
	},
});

describe('engine harness', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 50 } });
	});

	afterAll(async () => {
		await h?.close();
	});

	afterEach(() => {
		nock.cleanAll();
	});

	describe('loading the package the way n8n does', () => {
		it('lists the credential and every node that is built, and reports the rest', () => {
			expect(h.packageName).toBe(PKG);
			expect(h.credentialTypeNames).toContain('accessPointApi');
			const listed = h.loaded.listedNodes;
			expect(listed.map((n) => n.name)).toEqual([
				'accessPointRegistration',
				'accessPointIntegration',
				'accessPointIdentification',
				'accessPointPeppolLookup',
				'accessPointOrder',
				'accessPointOrderTrigger',
				'accessPointTrigger',
				'accessPointInbox',
				'accessPointInboxTrigger',
			]);
			for (const node of listed) {
				const built = !h.missing.nodes.includes(node.file);
				expect(h.nodeTypeNames.includes(`${PKG}.${node.name}`)).toBe(built);
			}
			expect(h.nodeTypeNames).toContain(`${PKG}.accessPointRegistration`);
		});

		it('addresses node types as <package>.<name> and expands short names', () => {
			expect(h.type('accessPointRegistration')).toBe(`${PKG}.accessPointRegistration`);
			expect(h.type('set')).toBe('n8n-nodes-base.set');
			expect(h.nodeTypes.getByNameAndVersion(`${PKG}.accessPointRegistration`).description.credentials).toEqual([
				expect.objectContaining({ name: 'accessPointApi' }),
				expect.objectContaining({ name: 'accessPointOAuth2Api' }),
			]);
			expect(() => h.type('noSuchNode')).toThrow(/Unknown node type/);
		});

		it('starts fast once n8n-core is loaded', async () => {
			const second = await createHarness({ emulator: false });
			try {
				expect(second.startupMs).toBeLessThan(2000);
			} finally {
				await second.close();
			}
		});
	});

	describe('core nodes', () => {
		it('runs Manual Trigger -> Set (expressions) -> IF and exposes both branches', async () => {
			const wf = h.chain([
				setNode('Prepare', [
					['name', 'string', '={{ $json.name.toUpperCase() }}'],
					['total', 'number', '={{ $json.qty * 10 }}'],
				]),
				ifNode('Big?', '={{ $json.total }}', 'gt', 25),
			]);
			const result = await h.run(wf, {
				input: [
					{ name: 'a', qty: 1 },
					{ name: 'b', qty: 3 },
				],
			});

			expect(result.status).toBe('success');
			expect(result.output('Prepare')).toEqual([
				{ name: 'A', total: 10 },
				{ name: 'B', total: 30 },
			]);
			expect(result.output('Big?', 0)).toEqual([{ name: 'B', total: 30 }]);
			expect(result.output('Big?', 1)).toEqual([{ name: 'A', total: 10 }]);
			expect(result.items('Big?', 0)[0].pairedItem).toEqual({ item: 1 });
			expect(result.executedNodes).toEqual(['When clicking \u2018Execute workflow\u2019', 'Prepare', 'Big?']);
		});

		it('runs n8n export JSON as it is and reports a failing expression as a node error', async () => {
			const wf: WorkflowJson = {
				name: 'export',
				nodes: [
					{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{ ...setNode('Broken', [['x', 'number', '={{ $("No such node").item.json.x }}']]), type: 'n8n-nodes-base.set', position: [200, 0] },
				],
				connections: { Start: { main: [[{ node: 'Broken', type: 'main', index: 0 }]] } },
			};
			const result = await h.run(wf);
			expect(result.status).toBe('error');
			expect(result.nodeError('Broken')?.message).toMatch(/Referenced node doesn't exist/);
			expect(result.error?.message).toBe(result.nodeError('Broken')?.message);
		});
	});

	describe('credential', () => {
		it('authenticates the HTTP Request node with predefined type accessPointApi (generic headers)', async () => {
			const scope = nock('https://headers.test').get('/echo').matchHeader('apikey', 'secret-key').matchHeader('partyID', '4242').reply(200, { ok: true });
			const wf = h.chain([
				{
					type: 'httpRequest',
					name: 'HTTP',
					parameters: {
						url: 'https://headers.test/echo',
						authentication: 'predefinedCredentialType',
						nodeCredentialType: 'accessPointApi',
						options: {},
					},
				},
			]);
			const result = await h.run(wf, {
				credentialsOverride: { apiKey: 'secret-key', partyId: '4242', environment: 'sandbox' },
			});
			expect(result.status).toBe('success');
			expect(result.output('HTTP')).toEqual([{ ok: true }]);
			expect(scope.isDone()).toBe(true);
		});

		it('supplies the credential to a node that references it by type only (templates)', async () => {
			const wf = h.chain([{ type: 'accessPointRegistration', name: 'Registrations', parameters: { operation: 'getAll' } }]);
			expect(wf.nodes[1].credentials).toBeUndefined();
			const normalized = h.normalize(wf);
			expect(normalized.nodes[1].credentials).toEqual({ accessPointApi: expect.objectContaining({ id: 'harness-accessPointApi' }) });
		});

		it('sends the apikey and partyID headers to the emulator from an AccessPoint node', async () => {
			h.emulator.clearRequests();
			const result = await h.runNode('accessPointRegistration', { operation: 'getAll' });
			expect(result.nodeName).toBe('AccessPoint Registration');
			expect(result.status).toBe('success');
			expect(result.output(result.nodeName).length).toBeGreaterThan(0);
			const [req] = h.emulator.requests;
			expect(req).toMatchObject({ method: 'GET', path: '/v1/einvoices/registrations', status: 200 });
			expect(req.headers.apikey).toBeDefined();
			expect(req.headers.partyid).toBe(h.credentials.partyId);
		});

		it('turns a bad apikey into a NodeApiError, or an error item with continueOnFail', async () => {
			const failed = await h.runNode('accessPointRegistration', { operation: 'getAll' }, undefined, {
				runOptions: { credentialsOverride: { apiKey: 'wrong' } },
			});
			expect(failed.status).toBe('error');
			const error = failed.nodeError(failed.nodeName);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.httpCode).toBe('401');

			const continued = await h.runNode('accessPointRegistration', { operation: 'getAll' }, undefined, {
				onError: 'continueRegularOutput',
				runOptions: { credentialsOverride: { apiKey: 'wrong' } },
			});
			expect(continued.status).toBe('success');
			expect(continued.output(continued.nodeName)).toEqual([expect.objectContaining({ httpCode: '401', error: expect.any(String) })]);
		});
	});

	describe('poll triggers', () => {
		const feed = (titles: Array<[string, string]>) =>
			`<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>${titles
				.map(([title, date]) => `<item><title>${title}</title><pubDate>${new Date(date).toUTCString()}</pubDate></item>`)
				.join('')}</channel></rss>`;

		it('keeps node static data between polls and emits only what is new', async () => {
			const items: Array<[string, string]> = [['one', '2030-01-01T10:00:00Z']];
			nock('http://feed.test')
				.persist()
				.get('/rss')
				.reply(200, () => feed(items), { 'content-type': 'application/rss+xml' });
			const poller = h.poller({ type: 'rssFeedReadTrigger', parameters: { feedUrl: 'http://feed.test/rss' } });

			const manual = await poller.poll('manual');
			expect(manual.items).toEqual([expect.objectContaining({ title: 'one' })]);
			expect(poller.nodeStaticData).toEqual({});

			const first = await poller.poll();
			expect(first.items).toEqual([expect.objectContaining({ title: 'one' })]);
			expect(first.nodeStaticData).toEqual({ lastItemDate: '2030-01-01T10:00:00.000Z' });

			expect((await poller.poll()).items).toBeNull();

			items.push(['two', '2030-01-01T11:00:00Z']);
			const third = await poller.poll();
			expect(third.items?.map((i) => i.title)).toEqual(['two']);

			// A fresh workflow continues from static data handed back.
			items.push(['three', '2030-01-01T12:00:00Z']);
			const once = await h.poll({ type: 'rssFeedReadTrigger', parameters: { feedUrl: 'http://feed.test/rss' } }, { staticData: third.staticData });
			expect(once.items?.map((i) => i.title)).toEqual(['three']);
		});

		it('rejects when the poll fails and can run the workflow behind the trigger', async () => {
			nock('http://feed.test').get('/down').reply(500, 'nope');
			const failing = h.poller({ type: 'rssFeedReadTrigger', parameters: { feedUrl: 'http://feed.test/down' } });
			await expect(failing.poll()).rejects.toThrow();

			nock('http://feed.test')
				.persist()
				.get('/rss2')
				.reply(200, feed([['x', '2030-02-01T10:00:00Z']]), { 'content-type': 'application/rss+xml' });
			const wf: WorkflowJson = {
				nodes: [
					{ name: 'Feed', type: 'rssFeedReadTrigger', parameters: { feedUrl: 'http://feed.test/rss2' } },
					setNode('Title', [['title', 'string', '={{ $json.title }}']]),
				],
				connections: { Feed: { main: [[{ node: 'Title', type: 'main', index: 0 }]] } },
			};
			const poller = h.poller(wf);
			const polled = await poller.poll({ execute: true });
			expect(polled.execution?.status).toBe('success');
			expect(polled.execution?.output('Title')).toEqual([{ title: 'x' }]);
		});
	});

	describe('waiting executions', () => {
		const waitWorkflow = (extra: Record<string, unknown> = {}) =>
			h.chain([
				setNode('Link', [['url', 'string', '={{ $execution.resumeUrl }}']]),
				{ type: 'wait', name: 'Wait', parameters: { resume: 'webhook', httpMethod: 'GET', options: {}, ...extra } },
				setNode('After', [['success', 'string', '={{ $json.query ? $json.query.success : "expired" }}']]),
			]);

		it('waits, exposes the resume URL the node saw and refuses a wrong token', async () => {
			const result = await h.run(waitWorkflow());
			expect(result.status).toBe('waiting');
			expect(result.waiting?.nodeName).toBe('Wait');
			expect(result.resumeUrl?.startsWith(`${h.urls.webhookWaitingBaseUrl}/${result.executionId}?signature=`)).toBe(true);
			expect(result.output('Link')).toEqual([{ url: result.resumeUrl }]);

			const tampered = result.resumeUrl!.replace(/signature=[0-9a-f]+/, 'signature=0000');
			const refused = await h.resume(result, { url: tampered, query: { success: 'true' } });
			expect(refused.response.status).toBe(401);
			expect(refused.result).toBeUndefined();
			expect(h.execution(result).status).toBe('waiting');

			const missing = await request(`${h.urls.webhookWaitingBaseUrl}/does-not-exist`);
			expect(missing.status).toBe(404);
		});

		it('resumes through the webhook with query parameters appended to the resume URL', async () => {
			const result = await h.run(waitWorkflow());
			const resumed = h.waitForResume(result);
			const { response } = await h.resume(result, { query: { registrationID: 'R-1', success: 'true' } });
			expect(response.status).toBe(200);
			const final = await resumed;
			expect(final.status).toBe('success');
			expect(final.output('Wait')[0]).toMatchObject({ query: { registrationID: 'R-1', success: 'true' } });
			expect(final.output('After')).toEqual([{ success: 'true' }]);

			const again = await h.resume(result, { query: { success: 'false' } });
			expect(again.response.status).toBe(409);
		});

		it('lets a wait time out: the waiting node passes its input through on output 0', async () => {
			const result = await h.run(waitWorkflow());
			const expired = await h.expire(result);
			expect(expired.status).toBe('success');
			expect(expired.output('Wait')).toEqual([{ url: result.resumeUrl }]);
			expect(expired.output('After')).toEqual([{ success: 'expired' }]);
		});

		it('expires on its own when waitTill passes', async () => {
			const result = await h.run(waitWorkflow({ limitWaitTime: true, limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'seconds' }));
			expect(result.status).toBe('waiting');
			const final = await h.waitForResume(result, { timeoutMs: 10000 });
			expect(final.status).toBe('success');
			expect(final.executed('After')).toBe(true);
			await sleep(0);
		});
	});

	describe('a node that waits and resumes itself (webhook() with two outputs)', () => {
		let f: Harness;
		let wf: WorkflowJson;

		beforeAll(async () => {
			f = await createHarness({ root: fixtures.waitingPackage, quiet: true });
			wf = f.chain([{ type: 'waitingProbe', name: 'Probe' }]);
			wf.nodes.push(
				{ name: 'Identified', type: 'n8n-nodes-base.noOp', parameters: {} },
				{ name: 'Not identified', type: 'n8n-nodes-base.noOp', parameters: {} },
			);
			wf.connections.Probe = {
				main: [[{ node: 'Identified', type: 'main', index: 0 }], [{ node: 'Not identified', type: 'main', index: 0 }]],
			};
		});

		afterAll(async () => {
			await f?.close();
		});

		it('skips package.json entries that are not built, or refuses them when asked', async () => {
			expect(f.nodeTypeNames).toEqual(['n8n-nodes-harness-fixture.waitingProbe']);
			expect(f.missing.nodes).toEqual(['built/NotBuiltYet.node.js']);
			expect(f.emulator).toBeUndefined();
			await expect(createHarness({ root: fixtures.waitingPackage, allowMissingNodes: false, quiet: true })).rejects.toThrow(
				/NotBuiltYet\.node\.js does not exist/,
			);
		});

		it('routes the resumed items to the output the webhook chose', async () => {
			const failed = await f.run(wf, { input: [{ id: 1 }] });
			expect(failed.status).toBe('waiting');
			expect(failed.output('Probe')).toEqual([{ id: 1, resumeUrl: failed.resumeUrl }]);

			const ignored = await f.resume(failed, { query: { ignore: 1 } });
			expect(ignored.response.status).toBe(202);
			expect(ignored.result).toBeUndefined();
			expect(f.execution(failed).status).toBe('waiting');

			const no = await f.resume(failed, { query: { registrationID: 'R-2', success: 'false' } });
			expect(no.response).toMatchObject({ status: 200, text: '<html><body>Done</body></html>' });
			expect(no.result?.outputs('Probe')).toEqual([[], [{ registrationID: 'R-2', success: false }]]);
			expect(no.result?.output('Not identified')).toEqual([{ registrationID: 'R-2', success: false }]);
			expect(no.result?.executed('Identified')).toBe(false);

			const ok = await f.run(wf);
			const yes = await f.resume(ok, { query: { registrationID: 'R-3', success: 'true' } });
			expect(yes.result?.output('Identified')).toEqual([{ registrationID: 'R-3', success: true }]);
		});

		it('accepts the resume URL with parameters appended, as a provider redirect does', async () => {
			const waiting = await f.run(wf);
			const url = new URL(waiting.resumeUrl!);
			url.searchParams.append('registrationID', 'R-4');
			url.searchParams.append('success', 'true');
			expect(f.checkResumeUrl(url.toString())).toEqual({ valid: true, executionId: waiting.executionId });
			const forged = url.toString().replace(/signature=[0-9a-f]+/, 'signature=abc');
			expect(f.checkResumeUrl(forged)).toMatchObject({ valid: false, reason: 'Invalid token' });

			nock('http://provider.test').get('/done').reply(302, '', { Location: url.toString() });
			const browsed = await f.browse('http://provider.test/done');
			expect(browsed.url).toBe(url.toString());
			expect(browsed.response.status).toBe(200);
			expect(browsed.result?.output('Identified')).toEqual([{ registrationID: 'R-4', success: true }]);
		});

		it("on timeout passes the waiting node's input through on output 0", async () => {
			const waiting = await f.run(wf, { input: [{ id: 7 }] });
			const expired = await f.expire(waiting);
			expect(expired.outputs('Probe')).toEqual([[{ id: 7 }]]);
			expect(expired.output('Identified')).toEqual([{ id: 7 }]);
			expect(expired.executed('Not identified')).toBe(false);
		});
	});
});
