/**
 * Secret scan: every node runs with a recognisable API key, on success and on failure
 * (401, 404, 5xx, HTML pages, empty and cut-off bodies, connection resets and refusals,
 * unusable Base URLs, and a server that echoes the key back in its error bodies), with
 * stop-on-fail and both continue modes. The key must appear nowhere in:
 * - the whole run as n8n keeps it (JSON of IRun: output items, error copies, run data),
 * - the original error instances (message, description, context, cause, stack and every
 *   other own field, expanded by report.js deepText),
 * - error items on any output (json and the attached error),
 * - the trigger's emitted items, thrown errors and static data,
 * - for the AccessPoint Trigger (webhooks), also its webhook secrets: in the items and runs of
 *   the executions it starts, its answers to valid, forged, stale and non-JSON calls, what its
 *   webhook() throws, activation errors (the per-party limit) and failed deletions,
 * - anything n8n's logger received, at any level (report.js captureLogs wraps LoggerProxy
 *   and the DI Logger that `this.logger` returns), and n8n-core's ErrorReporter.
 * Keys pasted with whitespace around them, and keys whose percent-encoded or JSON-escaped
 * forms differ, are scanned for in every form a server could echo.
 */
import nock from 'nock';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { createHarness, OAUTH2_CREDENTIAL_TYPE } from '../harness';
import type { Harness, HarnessResult } from '../harness';
import { signature, webhookTrigger } from '../harness/webhookTrigger';
import type { Emu } from './helpers';
import { captureLogs, deepText, printFigures } from './report';

/** A recognisable API key (a canary): any trace of it in output or logs is a leak. */
const CANARY = 'SECRET-APIKEY-9f3c2b7e51d04a8c';
const OLD_CANARY = `${CANARY}-revoked`;
/** A key with characters that percent-encoding and JSON escaping change (keys can be base64). */
const SPECIAL = 'SECRET+KEY/b64=="q"-3c9e2a7f';
/** Every form in which a server could echo a key: as sent, percent-encoded, JSON-escaped. */
const FORMS = [CANARY, OLD_CANARY, SPECIAL, encodeURIComponent(SPECIAL), JSON.stringify(SPECIAL).slice(1, -1)];
/** The key as pasted with whitespace around it (the header is sent trimmed, and the API echoes it trimmed). */
const PADDED = `  ${CANARY} \t\n`;
const ECHO = 'https://echo.example.test';

const ORDER = 'accessPointOrder';
const REG = 'accessPointRegistration';
const INT = 'accessPointIntegration';
const PEPPOL = 'accessPointPeppolLookup';
const IDENT = 'accessPointIdentification';
const TRIGGER = 'accessPointOrderTrigger';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const noRetry = { maxRetries: 0, retryDelayMs: 1 };
/** A case reading order `orderId` (the echo server answers by its number) with the given credential fields. */
const orderGet = (label: string, orderId: string, credentials: Record<string, string>) => ({
	label,
	type: ORDER,
	parameters: { resource: 'order', operation: 'get', orderId, options: noRetry },
	credentials,
});

type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

interface Scenario {
	label: string;
	type: string;
	parameters: IDataObject;
	input?: IDataObject[];
	setup?: (emu: Emu) => void;
	credentials?: IDataObject;
}

const createOrder: IDataObject = {
	resource: 'order',
	operation: 'create',
	orderDate: '2024-03-01',
	customerName: 'Secret Scan NV',
	externalProviderId: '={{ $json.ext }}',
	orderLines: { lines: [{ description: 'x', quantity: 1, unitPriceExcl: 10, vatPercentage: 21 }] },
	options: noRetry,
};

const SCENARIOS: Scenario[] = [
	// Success paths of every action node.
	{ label: 'order create', type: ORDER, parameters: createOrder, input: [{ ext: 'SECRET-SCAN-1' }] },
	{ label: 'order get', type: ORDER, parameters: { resource: 'order', operation: 'get', orderId: '1000001' } },
	{ label: 'order get many (2 pages)', type: ORDER, parameters: { resource: 'order', operation: 'getAll', limit: 130 } },
	{ label: 'party get many', type: ORDER, parameters: { resource: 'party', operation: 'getAll', limit: 5 } },
	{ label: 'product get many', type: ORDER, parameters: { resource: 'product', operation: 'getAll', limit: 5 } },
	{ label: 'registration get many', type: REG, parameters: { operation: 'getAll', returnAll: true } },
	{ label: 'registration get', type: REG, parameters: { operation: 'get', registrationId: byId('300001') } },
	{
		label: 'registration create',
		type: REG,
		parameters: {
			operation: 'create',
			companyName: 'Secret Scan BV',
			taxIdentifier: 'BE0481516215',
			email: 'scan@example.com',
			contactFirstName: 'Jan',
			contactLastName: 'Peeters',
			language: 'NL',
			addresses: { invoiceAddress: { street: 'Kerkstraat', streetNumber: '1', zipcode: '9000', city: 'Gent', countryCode: 'BE' } },
		},
	},
	{ label: 'integration get many', type: INT, parameters: { operation: 'getAll', registrationId: byId('300001'), returnAll: true } },
	{ label: 'peppol lookup', type: PEPPOL, parameters: { identifier: '={{ $json.id }}' }, input: [{ id: 'BE0123456749' }, { id: 'BE1002003070' }] },
	{
		label: 'identification start',
		type: IDENT,
		parameters: { operation: 'start', registrationId: byId('300001'), redirectUrl: 'https://app.example.test/done' },
	},
	{
		label: 'identification parse callback',
		type: IDENT,
		parameters: { operation: 'parseCallback' },
		input: [{ query: { registrationID: '300001', success: 'true' } }],
	},
	// API failures.
	{ label: 'order get 404 (both paths)', type: ORDER, parameters: { resource: 'order', operation: 'get', orderId: '999', options: noRetry } },
	{ label: 'registration get 404', type: REG, parameters: { operation: 'get', registrationId: byId('999999'), options: noRetry } },
	{
		label: "401: another account's party",
		type: ORDER,
		parameters: { resource: 'order', operation: 'getAll', limit: 5, options: { actForParty: '200001', ...noRetry } },
	},
	orderGet('401: revoked key', '1000001', { apiKey: OLD_CANARY }),
	{ label: 'create 500', type: ORDER, parameters: createOrder, input: [{ ext: 'SECRET-SCAN-2' }], setup: (emu) => emu.failNext(1, 500, { method: 'POST' }) },
	{
		label: 'create after-commit 503',
		type: ORDER,
		parameters: createOrder,
		input: [{ ext: 'SECRET-SCAN-3' }],
		setup: (emu) => emu.failNext(1, 'after-commit', { method: 'POST' }),
	},
	{
		label: 'create truncated answer',
		type: ORDER,
		parameters: createOrder,
		input: [{ ext: 'SECRET-SCAN-4' }],
		setup: (emu) => emu.failNext(1, 'truncated', { method: 'POST' }),
	},
	{
		label: 'get HTML 502',
		type: ORDER,
		parameters: { resource: 'order', operation: 'get', orderId: '1000001', options: noRetry },
		setup: (emu) => emu.failNext(1, 'html'),
	},
	{
		label: 'get many empty 500',
		type: ORDER,
		parameters: { resource: 'order', operation: 'getAll', limit: 5, options: noRetry },
		setup: (emu) => emu.failNext(1, 'empty'),
	},
	{
		label: 'get many truncated page 2',
		type: ORDER,
		parameters: { resource: 'order', operation: 'getAll', returnAll: true, options: noRetry },
		setup: (emu) => {
			emu.failNext(1, 'truncated', { pathPrefix: '/v1/orders' });
			emu.config.pageSize = 20;
		},
	},
	{ label: 'connection reset', type: REG, parameters: { operation: 'getAll', returnAll: true, options: noRetry }, setup: (emu) => emu.failNext(1, 'reset') },
	{ label: 'peppol 429', type: PEPPOL, parameters: { identifier: 'BE0123456749', options: noRetry }, setup: (emu) => emu.failNext(1, 429) },
	{
		label: 'integration create on unknown registration',
		type: INT,
		parameters: { operation: 'create', registrationId: byId('999999'), network: 'Peppol', options: noRetry },
	},
	{
		label: 'identification start on unknown registration',
		type: IDENT,
		parameters: { operation: 'start', registrationId: byId('999999'), redirectUrl: 'https://app.example.test/done' },
	},
	// Network and Base URL failures.
	orderGet('connection refused', '1', { baseUrl: 'http://127.0.0.1:1' }),
	{ label: 'plain http Base URL', type: REG, parameters: { operation: 'getAll', returnAll: true }, credentials: { baseUrl: 'http://api.example.test' } },
	{ label: 'Base URL not a URL', type: PEPPOL, parameters: { identifier: 'BE0123456749' }, credentials: { baseUrl: 'api example test' } },
	{
		label: 'the key pasted into the Base URL',
		type: ORDER,
		parameters: { resource: 'order', operation: 'get', orderId: '1' },
		credentials: { baseUrl: `http://${CANARY}@proxy.example.test/?apikey=${CANARY}` },
	},
	// A server that echoes the key back (nock).
	orderGet('echo: 401 naming the key', '401', { baseUrl: ECHO }),
	orderGet('echo: HTML 502 page with the key', '502', { baseUrl: ECHO }),
	orderGet('echo: 500 text with request headers', '500', { baseUrl: ECHO }),
	orderGet('echo: 400 with the key as error code', '400', { baseUrl: ECHO }),
	orderGet('echo: 200 cut off after the key', '200', { baseUrl: ECHO }),
	{
		label: 'echo: create answer cut off after the key',
		type: ORDER,
		parameters: { ...createOrder, skipIfExists: false },
		input: [{ ext: 'SECRET-SCAN-5' }],
		credentials: { baseUrl: ECHO },
	},
	// The key pasted with whitespace around it: trimmed once, masked in every form.
	{
		label: 'padded key: order get many (emulator)',
		type: ORDER,
		parameters: { resource: 'order', operation: 'getAll', limit: 130 },
		credentials: { apiKey: PADDED },
	},
	orderGet('padded key: order get 404 (emulator)', '999', { apiKey: PADDED }),
	orderGet('padded key: echo 401 naming the key', '401', { apiKey: PADDED, baseUrl: ECHO }),
	orderGet('padded key: echo 500 text with request headers', '500', { apiKey: PADDED, baseUrl: ECHO }),
	orderGet('padded key: echo 400 with the key as error code', '400', { apiKey: PADDED, baseUrl: ECHO }),
	orderGet('padded key: echo 200 record carrying the key', '201', { apiKey: PADDED, baseUrl: ECHO }),
	orderGet('special key: echo 401, key percent-encoded', '418', { apiKey: ` ${SPECIAL}\n`, baseUrl: ECHO }),
	orderGet('special key: echo 200 record carrying the key in every form', '201', { apiKey: SPECIAL, baseUrl: ECHO }),
	orderGet('special key: echo 400 with the key as error code', '400', { apiKey: `${SPECIAL}\t`, baseUrl: ECHO }),
];

function echoServer() {
	const key = (req: { headers: Record<string, string | string[] | undefined> }) => String(req.headers.apikey ?? '');
	nock(ECHO)
		.persist()
		.get(/\/v1\/orders?\/401$/)
		.reply(function () {
			return [401, { errors: [{ Code: 'Unauthorized', Description: `apikey ${key(this.req)} is revoked` }] }];
		})
		.get(/\/v1\/orders?\/502$/)
		.reply(function () {
			return [502, `<html><head><title>502 for ${key(this.req)}</title></head><body>apikey: ${key(this.req)}</body></html>`, { 'Content-Type': 'text/html' }];
		})
		.get(/\/v1\/orders?\/500$/)
		.reply(function () {
			return [500, `Upstream failed. Request headers: apikey=${key(this.req)}; partyid=${String(this.req.headers.partyid)}`, { 'Content-Type': 'text/plain' }];
		})
		.get(/\/v1\/orders?\/400$/)
		.reply(function () {
			return [400, { errors: [{ Code: key(this.req), Description: 'Unknown client' }] }];
		})
		.get(/\/v1\/orders?\/200$/)
		.reply(function () {
			return [200, `{"OrderID": 200, "Debug": {"apikey": "${key(this.req)}"`, { 'Content-Type': 'application/json' }];
		})
		.get(/\/v1\/orders?\/418$/)
		.reply(function () {
			return [401, { errors: [{ Code: 'Unauthorized', Description: `apikey=${encodeURIComponent(key(this.req))} is revoked` }] }];
		})
		.get(/\/v1\/orders?\/201$/)
		.reply(function () {
			const seen = key(this.req);
			return [200, { OrderID: 201, Debug: { seen, encoded: encodeURIComponent(seen), note: `key was ${seen}` } }];
		})
		.post('/v1/orders')
		.reply(function () {
			return [200, `{"OrderID": 7, "echo": "${key(this.req)}`, { 'Content-Type': 'application/json' }];
		});
}

describe('secret scan: the API key and webhook secrets never appear in outputs, errors or logs', () => {
	let h: Harness;
	let emu: Emu;
	let logs: ReturnType<typeof captureLogs>;
	const leaks: string[] = [];
	/** The AccessPoint Trigger's webhook secrets, once it made them. */
	const webhookSecrets: string[] = [];
	let leakCount = 0;
	let scanned = 0;
	let bytes = 0;
	let errorsSeen = 0;

	const scan = (where: string, text: string | undefined) => {
		if (!text) return;
		scanned++;
		bytes += text.length;
		for (const secret of [...FORMS, ...webhookSecrets]) {
			const at = text.indexOf(secret);
			if (at >= 0) leakCount++;
			if (at >= 0) leaks.push(`${where}: …${text.slice(Math.max(0, at - 80), at + secret.length + 20)}…`);
		}
	};

	const scanRun = (where: string, result: HarnessResult) => {
		scan(`${where} › run data (JSON)`, JSON.stringify(result.run));
		scan(`${where} › workflow error`, deepText(result.error));
		const name = result.nodeName as string;
		const error = result.nodeError(name);
		if (error) {
			errorsSeen++;
			scan(`${where} › node error`, deepText(error));
			scan(`${where} › node error message/description`, `${error.message} ${String(error.description ?? '')}`);
		}
		for (const [outputIndex, items] of (result.runData[name]?.[0]?.data?.main ?? []).entries()) {
			for (const item of items ?? []) {
				if (item.error || item.json.error) errorsSeen++;
				scan(`${where} › output ${outputIndex} item`, deepText(item.json));
				scan(`${where} › output ${outputIndex} item error`, deepText(item.error));
			}
		}
	};

	beforeAll(async () => {
		h = await createHarness({ emulator: { apiKey: CANARY, orders: 150, config: { retryAfterSeconds: 0 } }, quiet: true });
		emu = h.emulator as Emu;
		expect(h.credentials.apiKey).toBe(CANARY);
		expect(new Set(FORMS).size).toBe(FORMS.length);
		logs = captureLogs();
		echoServer();
	});

	afterAll(async () => {
		logs?.stop();
		nock.cleanAll();
		await h?.close();
	});

	const modes: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];

	beforeEach(() => {
		leaks.length = 0;
	});

	it.each(SCENARIOS.map((s) => [s.label, s] as const))('%s: the key appears nowhere (3 error modes)', async (_label, scenario) => {
		for (const onError of modes) {
			emu.config.pageSize = 120;
			scenario.setup?.(emu);
			const result = await h.runNode(scenario.type, scenario.parameters, scenario.input ?? [{}], {
				onError,
				runOptions: scenario.credentials ? { credentialsOverride: scenario.credentials } : undefined,
			});
			scanRun(`${scenario.label} [${onError}]`, result);
			emu.config.pageSize = 120;
		}
		expect(leaks).toEqual([]);
	});

	it('a key pasted with whitespace around it works (trimmed once) and its echo is masked in output', async () => {
		const listed = await h.runNode(ORDER, { resource: 'order', operation: 'getAll', limit: 130 }, [{}], {
			runOptions: { credentialsOverride: { apiKey: PADDED } },
		});
		listed.assertSuccess();
		expect(listed.output(listed.nodeName as string)).toHaveLength(130);
		const echoed = await h.runNode(ORDER, { resource: 'order', operation: 'get', orderId: '201', options: noRetry }, [{}], {
			runOptions: { credentialsOverride: { apiKey: SPECIAL, baseUrl: ECHO } },
		});
		echoed.assertSuccess();
		const [record] = echoed.output(echoed.nodeName as string);
		expect(record).toEqual({ OrderID: 201, Debug: { seen: '***', encoded: '***', note: 'key was ***' } });
		scanRun('padded key (success)', listed);
		scanRun('special key (echoed in a 200 record)', echoed);
		expect(leaks).toEqual([]);
	});

	it('the Order Trigger: activation, a change, a failed poll and a bad Base URL', async () => {
		const poller = h.poller({ type: TRIGGER, parameters: { event: 'newOrUpdatedOrder', orderType: '', direction: '', options: noRetry } });
		await poller.poll();
		emu.store.addOrder(emu.credentials.partyId, {});
		const changed = await poller.poll();
		scan('trigger › emitted items', deepText(changed.items));
		emu.failNext(1, 503, { pathPrefix: '/v1/orders' });
		const failure = await poller.poll().then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeDefined();
		errorsSeen++;
		scan('trigger › failed poll error', deepText(failure));
		scan('trigger › static data', deepText(poller.staticData));
		const badUrl = await h
			.poll(
				{ type: TRIGGER, parameters: { event: 'newOrder', orderType: '', direction: '' } },
				{ credentialsOverride: { baseUrl: `http://${CANARY}@proxy.example.test` } },
			)
			.then(
				() => undefined,
				(error: unknown) => error,
			);
		expect(badUrl).toBeDefined();
		errorsSeen++;
		scan('trigger › Base URL error', deepText(badUrl));
		expect(leaks).toEqual([]);
	});

	it('the AccessPoint Trigger: its webhook secrets (and the key) appear in no item, answer, error or log', async () => {
		const hub = (emu.webhooks as unknown as { hub: { hooks: Map<number, { secret: string }>; remove(id: number): boolean } }).hub;
		const api = async (method: string, path: string, body?: unknown) => {
			const res = await fetch(`${emu.url}${path}`, {
				method,
				headers: { apikey: CANARY, partyID: emu.credentials.partyId, 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			return text ? (JSON.parse(text) as IDataObject) : {};
		};
		const t = await webhookTrigger(h, {
			type: 'accessPointTrigger',
			parameters: { events: ['orderCreated', 'deliveryStatusChanged'], options: { ...noRetry, fetchFullOrder: true } },
		});
		try {
			await t.activate();
			const kept = (t.nodeStaticData.webhooks as { webhooks: Array<{ secret: string }> }).webhooks.map((w) => w.secret);
			webhookSecrets.push(...kept, ...[...hub.hooks.values()].map((w) => w.secret));
			expect(kept).toHaveLength(3);
			expect(kept.every((secret) => secret.length >= 32)).toBe(true);

			// Events from the emulator: a new order, its Peppol send and delivery steps.
			const created = await api('POST', '/v1/orders', {
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				OrderDate: '2024-03-01',
				Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
				OrderLines: [{ Quantity: 1, Description: 'x', UnitPriceExcl: 10, VATPercentage: 21 }],
			});
			const id = Number(created.OrderID ?? created);
			await api('POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] });
			emu.delivery.set(id, 'Delivered');
			emu.delivery.set(id, 'Refused', { reason: 'REF' });
			emu.webhooks.failNext(1, 'wrong-signature');
			await api('POST', '/v1/orders', { OrderType: 'Invoice', OrderDirection: 'Income', OrderDate: '2024-03-02' });
			await emu.webhooks.settle();
			const runs = await t.waitForExecutions(4);
			for (const [i, run] of runs.entries()) {
				run.nodeName = t.nodeName;
				scanRun(`webhook trigger › execution ${i + 1}`, run);
				scan(`webhook trigger › execution ${i + 1} items`, deepText(run.output(t.nodeName)));
			}

			// Calls that are refused, and one whose order read fails (webhook() throws).
			const secret = kept[0];
			const body = { UpdatedEntityID: id, UpdatedEntityType: 'Order', WebhookUpdateTypeTC: 'I', EntityDetail: {} };
			const answers = [
				await t.post(body, { headers: { 'billit-signature': signature(`${secret}x`, body) } }),
				await t.post(body, { headers: { 'billit-signature': signature(secret, body, Math.floor(Date.now() / 1000) - 3600) } }),
				await t.post('not json', { contentType: 'text/plain', headers: { 'billit-signature': signature(secret, 'not json') } }),
			];
			emu.failNext(1, 500, { pathPrefix: '/v1/orders' });
			answers.push(await t.post(body, { headers: { 'billit-signature': signature(secret, body) } }));
			expect(answers.map((a) => a.status)).toEqual([401, 401, 400, 500]);
			for (const [i, a] of answers.entries()) scan(`webhook trigger › answer ${i + 1}`, a.text);
			expect(t.errors).toHaveLength(1);
			errorsSeen += t.errors.length;
			for (const error of t.errors) scan('webhook trigger › webhook() error', deepText(error));

			// The per-party limit at activation, and deletions that fail at deactivation.
			const other = await webhookTrigger(h, { type: 'accessPointTrigger', parameters: { events: ['orderCreated', 'orderUpdated'], options: noRetry } });
			const limit = await other.activate().then(
				() => undefined,
				(error: unknown) => error,
			);
			await other.close();
			expect(String((limit as Error).message)).toMatch(/already has 3 webhooks/);
			errorsSeen++;
			scan('webhook trigger › limit error', deepText(limit));
			emu.failNext(3, 500, { method: 'DELETE' });
			expect(await t.deactivate()).toEqual([false]);
			scan('webhook trigger › calls received', deepText(t.calls));
		} finally {
			await t.close();
			for (const w of emu.webhooks.list()) hub.remove(w.WebhookID as number);
		}
		expect(leaks).toEqual([]);
	});

	it('nothing n8n logged or reported contains the key', () => {
		for (const line of logs.lines) scan(`log (${line.level})`, line.text);
		const reported = logs.reportedErrors();
		for (const entry of reported) scan('ErrorReporter', deepText(entry));
		printFigures('secret scan', {
			scenarios: `${SCENARIOS.length} × 3 error modes + Order Trigger + AccessPoint Trigger`,
			'of them with a padded or special-character key': SCENARIOS.filter((sc) => /^(padded|special) key/.test(sc.label)).length,
			'key forms scanned for': FORMS.length,
			'webhook secrets scanned for': webhookSecrets.length,
			'errors / error items inspected': errorsSeen,
			'texts scanned': scanned,
			'characters scanned': bytes,
			'log lines captured (all levels)': logs.lines.length,
			'errors reported to ErrorReporter': reported.length,
			leaks: leakCount,
		});
		expect(logs.lines.length).toBeGreaterThan(0); // the capture works (WorkflowExecute logs at debug)
		expect(leaks).toEqual([]);
	});
});

/**
 * The same scan for the OAuth2 credential (#22): a recognisable client secret and every access
 * and refresh token the emulator issued (tokens rotate on each refresh, so the list grows), over
 * success paths, a refresh between pages, a token still refused, a revoked refresh token, a token
 * URL that redirects, a token endpoint and an API that echo the secret or the token back.
 */
describe('secret scan (OAuth2): the client secret and the tokens never appear in outputs, errors or logs', () => {
	const CLIENT_CANARY = 'SECRET-CLIENT-7d41e0b9c2a84f36';
	const TOKEN_ECHO = 'https://token-echo.example.test';
	const API_ECHO = 'https://api-echo.example.test';
	const REDIRECTING = 'https://token-moved.example.test';
	const HOUR_MS = 3_600_000;
	let h: Harness;
	let emu: Emu;
	let logs: ReturnType<typeof captureLogs>;
	/** Every secret seen so far: the client secret and each token issued to the credential. */
	const secrets = new Set<string>([CLIENT_CANARY]);
	const leaks: string[] = [];
	let scanned = 0;
	let errorsSeen = 0;
	let refreshes = 0;

	const learnTokens = () => {
		const data = h.credentialsOf(OAUTH2_CREDENTIAL_TYPE).oauthTokenData as IDataObject | undefined;
		for (const key of ['access_token', 'refresh_token']) if (typeof data?.[key] === 'string') secrets.add(data[key] as string);
	};
	const connect = async () => {
		await h.connectOAuth({ extra: { tokenUrl: emu.oauth.tokenUrl } });
		learnTokens();
	};
	const scan = (where: string, text: string | undefined) => {
		if (!text) return;
		scanned++;
		for (const secret of secrets) {
			const at = text.indexOf(secret);
			if (at >= 0) leaks.push(`${where}: …${text.slice(Math.max(0, at - 80), at + secret.length + 20)}…`);
		}
	};
	const scanRun = (where: string, result: HarnessResult) => {
		scan(`${where} › run data (JSON)`, JSON.stringify(result.run));
		scan(`${where} › workflow error`, deepText(result.error));
		const name = result.nodeName as string;
		const error = result.nodeError(name);
		if (error) {
			errorsSeen++;
			scan(`${where} › node error`, deepText(error));
		}
		for (const items of result.runData[name]?.[0]?.data?.main ?? []) {
			for (const item of items ?? []) {
				if (item.error || item.json.error) errorsSeen++;
				scan(`${where} › item`, deepText(item.json));
				scan(`${where} › item error`, deepText(item.error));
			}
		}
	};

	/** Runs `action` whenever a request to `path` arrives, before the emulator handles it. */
	function onRequest(path: string, action: (n: number) => void): () => void {
		const log = emu.requests as Array<{ path: string }>;
		const push = log.push;
		let n = 0;
		log.push = function (...entries) {
			for (const entry of entries) if (entry.path === path) action(++n);
			return push.apply(this, entries);
		};
		return () => {
			log.push = push;
		};
	}

	interface OAuthScenario {
		label: string;
		type: string;
		parameters: IDataObject;
		input?: IDataObject[];
		credentials?: IDataObject;
		/** Set up before each run; returns what undoes it. */
		around?: () => () => void;
	}
	const orders = { resource: 'order', operation: 'getAll', returnAll: true, options: noRetry };
	const SCENARIOS: OAuthScenario[] = [
		{ label: 'order get many (3 pages)', type: ORDER, parameters: orders },
		{ label: 'registration get many', type: REG, parameters: { operation: 'getAll', returnAll: true } },
		{ label: 'peppol lookup', type: PEPPOL, parameters: { identifier: 'BE0123456749' } },
		{
			label: 'identification start',
			type: IDENT,
			parameters: { operation: 'start', registrationId: byId('300001'), redirectUrl: 'https://app.example.test/done' },
		},
		{ label: 'order create', type: ORDER, parameters: createOrder, input: [{ ext: 'SECRET-SCAN-OAUTH' }] },
		{
			label: 'the token expires between two pages (refresh)',
			type: ORDER,
			parameters: orders,
			around: () => onRequest('/v1/orders', (n) => n === 2 && emu.clock.advance(HOUR_MS + 1000)),
		},
		{
			label: 'the token is refused even after a refresh (401)',
			type: ORDER,
			parameters: { resource: 'order', operation: 'get', orderId: '1000001', options: noRetry },
			around: () => onRequest('/v1/orders/1000001', () => emu.clock.advance(HOUR_MS + 1000)),
		},
		{
			label: 'a token endpoint that echoes the client secret and refresh token',
			type: ORDER,
			parameters: orders,
			credentials: { tokenUrl: `${TOKEN_ECHO}/OAuth2/token` },
			around: () => onRequest('/v1/orders', (n) => n === 1 && emu.clock.advance(HOUR_MS + 1000)),
		},
		{
			label: 'a token URL that redirects',
			type: ORDER,
			parameters: orders,
			credentials: { tokenUrl: `${REDIRECTING}/OAuth2/token` },
			around: () => onRequest('/v1/orders', (n) => n === 1 && emu.clock.advance(HOUR_MS + 1000)),
		},
		{
			label: 'echo: 401 naming the token (then a refresh and another 401)',
			type: ORDER,
			parameters: { resource: 'order', operation: 'get', orderId: '401', options: noRetry },
			credentials: { baseUrl: API_ECHO, partyId: '100001' },
		},
		{
			label: 'echo: 500 text with request headers',
			type: ORDER,
			parameters: { resource: 'order', operation: 'get', orderId: '500', options: noRetry },
			credentials: { baseUrl: API_ECHO, partyId: '100001' },
		},
		{
			label: 'echo: 400 with the token as error code',
			type: ORDER,
			parameters: { resource: 'order', operation: 'get', orderId: '400', options: noRetry },
			credentials: { baseUrl: API_ECHO, partyId: '100001' },
		},
		{
			label: 'echo: 200 cut off after the token',
			type: ORDER,
			parameters: { resource: 'order', operation: 'get', orderId: '200', options: noRetry },
			credentials: { baseUrl: API_ECHO, partyId: '100001' },
		},
		{
			label: 'a secret pasted into the Access Token URL',
			type: REG,
			parameters: { operation: 'getAll', returnAll: true },
			credentials: { tokenUrl: `http://${CLIENT_CANARY}@login.example.test/OAuth2/token` },
		},
	];

	function echoServers() {
		const bearer = (req: { headers: Record<string, string | string[] | undefined> }) => String(req.headers.authorization ?? '');
		const form = (body: unknown) => (typeof body === 'string' ? body : new URLSearchParams(body as Record<string, string>).toString());
		nock(TOKEN_ECHO)
			.persist()
			.post('/OAuth2/token')
			.reply(function (_uri, body) {
				const sent = new URLSearchParams(form(body));
				return [
					400,
					{
						error: 'invalid_client',
						error_description: `client_secret ${sent.get('client_secret') ?? ''} and refresh token ${sent.get('refresh_token') ?? ''} rejected`,
					},
				];
			});
		nock(REDIRECTING)
			.persist()
			.post('/OAuth2/token')
			.reply(307, '', { Location: `${TOKEN_ECHO}/OAuth2/token` });
		nock(API_ECHO)
			.persist()
			.get(/\/v1\/orders?\/401$/)
			.reply(function () {
				return [401, { errors: [{ Code: 'Unauthorized', Description: `token ${bearer(this.req)} is not valid` }] }];
			})
			.get(/\/v1\/orders?\/500$/)
			.reply(function () {
				return [
					500,
					`Upstream failed. Request headers: authorization=${bearer(this.req)}; partyid=${String(this.req.headers.partyid)}`,
					{ 'Content-Type': 'text/plain' },
				];
			})
			.get(/\/v1\/orders?\/400$/)
			.reply(function () {
				return [400, { errors: [{ Code: bearer(this.req).replace(/^Bearer /, ''), Description: 'Unknown token' }] }];
			})
			.get(/\/v1\/orders?\/200$/)
			.reply(function () {
				return [200, `{"OrderID": 200, "Debug": {"authorization": "${bearer(this.req)}"`, { 'Content-Type': 'application/json' }];
			});
	}

	beforeAll(async () => {
		h = await createHarness({
			emulator: {
				orders: 150,
				config: { retryAfterSeconds: 0 },
				oauth: { clients: [{ clientId: 'scan-client', clientSecret: CLIENT_CANARY, redirectUris: ['http://localhost:5678/rest/oauth2-credential/callback'] }] },
			},
			quiet: true,
		});
		emu = h.emulator as Emu;
		await connect();
		logs = captureLogs();
		echoServers();
	});

	afterAll(async () => {
		logs?.stop();
		nock.cleanAll();
		await h?.close();
	});

	beforeEach(() => {
		leaks.length = 0;
	});

	it.each(SCENARIOS.map((s) => [s.label, s] as const))('%s: no secret anywhere (3 error modes)', async (_label, scenario) => {
		for (const onError of ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const) {
			const undo = scenario.around?.();
			emu.oauth.resetStats();
			try {
				const result = await h.runNode(scenario.type, { authentication: 'oAuth2', ...scenario.parameters }, scenario.input ?? [{}], {
					onError,
					runOptions: scenario.credentials
						? {
								credentialTypesOverride: {
									[OAUTH2_CREDENTIAL_TYPE]: { ...h.credentialsOf(OAUTH2_CREDENTIAL_TYPE), ...scenario.credentials } as ICredentialDataDecryptedObject,
								},
							}
						: undefined,
				});
				refreshes += emu.oauth.stats().grants.refresh_token;
				learnTokens();
				scanRun(`${scenario.label} [${onError}]`, result);
			} finally {
				undo?.();
			}
		}
		expect(leaks).toEqual([]);
	});

	it('a revoked refresh token (the reconnect error), and the Order Trigger', async () => {
		const poller = h.poller({
			type: TRIGGER,
			parameters: { authentication: 'oAuth2', event: 'newOrUpdatedOrder', orderType: '', direction: '', options: noRetry },
		});
		await poller.poll();
		emu.store.addOrder(emu.credentials.partyId, {});
		scan('trigger › emitted items', deepText((await poller.poll()).items));
		scan('trigger › static data', deepText(poller.staticData));
		emu.oauth.revoke({});
		for (const onError of ['stopWorkflow', 'continueRegularOutput'] as const) {
			const result = await h.runNode(ORDER, { authentication: 'oAuth2', ...orders }, [{}], { onError });
			expect(JSON.stringify(result.run)).toContain('needs to be reconnected');
			scanRun(`revoked [${onError}]`, result);
		}
		const failedPoll = await poller.poll().then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failedPoll).toBeDefined();
		errorsSeen++;
		scan('trigger › reconnect error', deepText(failedPoll));
		await connect();
		expect(leaks).toEqual([]);
	});

	it('nothing n8n logged or reported contains a secret', () => {
		for (const line of logs.lines) scan(`log (${line.level})`, line.text);
		const reported = logs.reportedErrors();
		for (const entry of reported) scan('ErrorReporter', deepText(entry));
		printFigures('secret scan (OAuth2)', {
			scenarios: `${SCENARIOS.length} × 3 error modes + revoked × 2 + trigger`,
			'secrets looked for (client secret + tokens issued)': secrets.size,
			'refresh_token grants during the scan': refreshes,
			'errors / error items inspected': errorsSeen,
			'texts scanned': scanned,
			'log lines captured (all levels)': logs.lines.length,
			'errors reported to ErrorReporter': reported.length,
			leaks: leaks.length,
		});
		expect(secrets.size).toBeGreaterThan(4);
		expect(refreshes).toBeGreaterThan(0);
		expect(leaks).toEqual([]);
	});
});
