/**
 * Hostile server: bodies. Through n8n-core's engine against a loopback server (which runs
 * in this test's process, so its RSS is the engine's):
 * - an endless body (a single read and a list's second page) stops at the maximum
 *   response size (50 MB by default; 5 MB set through the client) with a NodeApiError, is not fetched
 *   again by the retries, and the server sees the connection closed;
 * - a body trickling a byte every 200 ms stops at the Request Timeout (a deadline for the
 *   whole answer, not an idle timeout): the server gets to write only a few bytes;
 * - a decompression bomb (3 MB of gzip that inflates to 3 GB): the process survives, the
 *   inflating stops at the limit, RSS stays bounded (peak printed), no retry fetches it again;
 * - a Retry-After of a day or a week: the run fails at once with the wait named.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { policyFromOptions } from '../../nodes/shared/fields/requestOptions';
import { getApiClient } from '../../nodes/shared/node/client';
import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { endless, gzip, gzipBomb, pause, rssMb, sampleRss, serveHostile, trickle } from './hostile-server';
import type { HostileServer } from './hostile-server';
import { n8nContext } from './n8n-context';
import { printFigures } from './report';

const CANARY = 'HOSTILE-BODY-KEY-5e77f2';
const ORDER = 'accessPointOrder';
const MB = 1024 * 1024;
const GB = 1024 * MB;
const orderGet = (options: IDataObject = {}) => ({
	resource: 'order',
	operation: 'get',
	orderId: '1000001',
	options: { maxRetries: 3, retryDelayMs: 1, ...options },
});
const returnAll = (options: IDataObject = {}) => ({
	resource: 'order',
	operation: 'getAll',
	returnAll: true,
	options: { maxRetries: 3, retryDelayMs: 1, ...options },
});
/** Bound on the RSS growth while a bomb or an endless body is read (the limit is 50 MB; JSON text and chunks on top). */
const RSS_BOUND_MB = 400;

describe('hostile server: endless, slow and compressed bodies', () => {
	let h: Harness;
	let server: HostileServer;
	let handle: (res: import('http').ServerResponse, url: string) => void = (res) => res.end('{}');
	const figures: Record<string, string> = {};

	beforeAll(async () => {
		server = await serveHostile((_req, res, request) => handle(res, request.url));
		h = await createHarness({ emulator: false, credentials: { apiKey: CANARY, partyId: '100001', environment: 'custom', baseUrl: server.url }, quiet: true });
	});
	afterAll(async () => {
		printFigures('hostile bodies', figures);
		await h?.close();
		await server?.close();
	});

	/** Waits (at most 10 s) for the server to report what it wrote on each closed answer. */
	const closed = async (written: number[], count: number) => {
		for (let waited = 0; written.length < count && waited < 10_000; waited += 5) await pause(5);
		expect(written.length).toBeGreaterThanOrEqual(count);
	};

	const json = (res: import('http').ServerResponse) => res.setHeader('content-type', 'application/json');
	const firstPage = (res: import('http').ServerResponse) => {
		json(res);
		res.end(JSON.stringify({ Items: [{ OrderID: 1 }], NextpageLink: '/v1/orders?$skip=1' }));
	};

	it.each([
		['single read (order get), default 50 MB', orderGet(), 50],
		['list page 2 (return all), default 50 MB', returnAll(), 50],
	] as Array<[string, IDataObject, number]>)('endless body, %s: fails at the limit, fetched once, connection closed', async (label, parameters, limitMb) => {
		const written: number[] = [];
		handle = (res, url) => {
			if (/^\/v1\/orders(\?|$)/.test(url) && !url.includes('skip')) return firstPage(res);
			json(res);
			void endless(res, '{"Items":[{"OrderID":2,"Note":"', Buffer.alloc(64 * 1024, 'x')).then((bytes) => written.push(bytes));
		};
		const before = server.requests.length;
		const rss = sampleRss();
		const start = rssMb();
		const result = await h.runNode(ORDER, parameters);
		const peak = rss.stop();
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toMatch(new RegExp(`failed: the answer is larger than ${limitMb} MB; it was not read further$`));
		const requests = server.requests.slice(before);
		expect(requests.filter((r) => r.url.includes('skip') || r.url.includes('/v1/orders/'))).toHaveLength(1);
		// The server stopped writing soon after the limit: the client closed the connection.
		await closed(written, 1);
		expect(written[0]).toBeGreaterThan(limitMb * MB);
		expect(written[0]).toBeLessThan((limitMb + 32) * MB);
		expect(peak - start).toBeLessThan(RSS_BOUND_MB);
		figures[`endless body, ${label}`] =
			`requests ${requests.length}, server wrote ${(written[0] / MB).toFixed(1)} MB before the close, RSS peak +${(peak - start).toFixed(0)} MB`;
	});

	it('the Maximum Response Size option (5 MB through the client): an endless body stops at 5 MB', async () => {
		const written: number[] = [];
		handle = (res) => {
			json(res);
			void endless(res, '{"OrderID":2,"Note":"', Buffer.alloc(64 * 1024, 'y')).then((bytes) => written.push(bytes));
		};
		const client = await getApiClient.call(n8nContext({ apiKey: CANARY, partyId: '100001', environment: 'custom', baseUrl: server.url }), {
			retry: policyFromOptions({ maxRetries: 2, retryDelayMs: 1, maxResponseSizeMb: 5 }),
		});
		const before = server.requests.length;
		const error = await client.request({ method: 'GET', path: '/v1/orders/1', operation: 'Get order 1' }).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as Error).message).toBe('Get order 1 failed: the answer is larger than 5 MB; it was not read further');
		expect(server.requests.length - before).toBe(1);
		await closed(written, 1);
		expect(written[0]).toBeLessThan(37 * MB);
		figures['endless body, Maximum Response Size 5 MB (client)'] =
			`requests 1 (Read Retries 2), server wrote ${(written[0] / MB).toFixed(1)} MB before the close`;
	});

	it('a gzip answer is read whole past its announced (compressed) Content-Length, which sizes the buffer it is read into', async () => {
		const Items = Array.from({ length: 6000 }, (_, i) => ({ OrderID: i, Note: `${(i * 2654435761) % 4294967291}-${(i * 40503) % 65521}` }));
		const body = gzip(JSON.stringify({ Items }));
		expect(body.length).toBeGreaterThan(65_536);
		handle = (res) => {
			json(res);
			res.setHeader('content-encoding', 'gzip');
			res.setHeader('content-length', String(body.length));
			res.end(body);
		};
		const client = await getApiClient.call(n8nContext({ apiKey: CANARY, partyId: '100001', environment: 'custom', baseUrl: server.url }));
		expect(await client.request({ method: 'GET', path: '/v1/orders', operation: 'List orders' })).toEqual({ Items });
	});

	it.each([
		['single read (order get)', orderGet({ timeoutSeconds: 1, maxRetries: 1 })],
		['list page 2 (return all)', returnAll({ timeoutSeconds: 1, maxRetries: 1 })],
	] as Array<[string, IDataObject]>)(
		'a body trickling a byte every 200 ms, %s: the Request Timeout is a deadline for the whole answer',
		async (label, parameters) => {
			const bytes = '{"Items":[{"OrderID":3,"Note":"'.split('').concat(Array.from({ length: 100 }, () => 'x'));
			const written: number[] = [];
			handle = (res, url) => {
				if (/^\/v1\/orders(\?|$)/.test(url) && !url.includes('skip')) return firstPage(res);
				json(res);
				res.flushHeaders();
				void trickle(res, bytes, 200).then((count) => written.push(count));
			};
			const before = server.requests.length;
			const result = await h.runNode(ORDER, parameters);
			expect(result.status).toBe('error');
			const error = result.nodeError(result.nodeName as string);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toMatch(/failed: the request timed out$/);
			const slow = server.requests.slice(before).filter((r) => r.url.includes('skip') || r.url.includes('/v1/orders/'));
			// Read Retries 1: two attempts, each cut off at its 1 s deadline (5 bytes at 200 ms; without the deadline, 131).
			expect(slow).toHaveLength(2);
			await closed(written, 2);
			expect(Math.max(...written)).toBeLessThan(20);
			figures[`slow body (1 byte / 200 ms), ${label}`] =
				`attempts ${slow.length}, bytes the server wrote before each close ${written.join(', ')} (of ${bytes.length})`;
		},
	);

	it.each([
		['429, Retry-After: 86400', 429, '86400'],
		['503, Retry-After: an HTTP date a week ahead', 503, 'DATE'],
	] as Array<[string, number, string]>)('%s: the run fails at once naming the wait, instead of sleeping', async (label, status, header) => {
		const retryAfter = header === 'DATE' ? new Date(Date.now() + 7 * 86_400_000).toUTCString() : header;
		handle = (res) => {
			json(res);
			res.statusCode = status;
			res.setHeader('retry-after', retryAfter);
			res.end('{"errors":[{"Code":"TooManyRequests","Description":"slow down"}]}');
		};
		const before = server.requests.length;
		const result = await h.runNode(ORDER, orderGet({ maxRetries: 10 }));
		expect(result.status).toBe('error');
		const error = result.nodeError(result.nodeName as string);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toMatch(
			new RegExp(`^Get order 1000001 failed with HTTP ${status}: Retry-After asks to wait \\d+ s, more than the 120 s a node waits$`),
		);
		expect(server.requests.length - before).toBe(1);
		figures[label] = `requests ${server.requests.length - before} (Read Retries 10), "${error?.message}"`;
	});

	it.each([
		['single read (order get)', orderGet()],
		['list page 2 (return all)', returnAll()],
	] as Array<[string, IDataObject]>)(
		'a 3 MB gzip that inflates to 3 GB, %s: the process survives, RSS bounded, not fetched again',
		async (label, parameters) => {
			const bomb = gzipBomb(3 * GB);
			handle = (res, url) => {
				if (/^\/v1\/orders(\?|$)/.test(url) && !url.includes('skip')) return firstPage(res);
				json(res);
				res.setHeader('content-encoding', 'gzip');
				res.setHeader('content-length', String(bomb.length));
				res.end(bomb);
			};
			const before = server.requests.length;
			const rss = sampleRss();
			const start = rssMb();
			const result = await h.runNode(ORDER, parameters);
			const peak = rss.stop();
			expect(result.status).toBe('error');
			expect(result.nodeError(result.nodeName as string)?.message).toMatch(/the answer is larger than 50 MB; it was not read further$/);
			const bombs = server.requests.slice(before).filter((r) => r.url.includes('skip') || r.url.includes('/v1/orders/'));
			expect(bombs).toHaveLength(1);
			expect(peak - start).toBeLessThan(RSS_BOUND_MB);
			figures[`gzip bomb ${(bomb.length / MB).toFixed(1)} MB → 3 GB, ${label}`] =
				`requests ${bombs.length} (Read Retries 3), RSS peak +${(peak - start).toFixed(0)} MB (bound ${RSS_BOUND_MB})`;
		},
	);
});
