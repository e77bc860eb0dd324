/**
 * The set-up the AccessPoint Trigger suites share: one harness with the emulator (fast webhook
 * retries), every published trigger closed and the emulator's webhooks, faults and requests
 * cleared after each test, and the emulator's API as a user's ERP calls it.
 */
import type { IDataObject } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { createHarness } from '../harness';
import type { Harness } from '../harness';
import { webhookTrigger } from '../harness/webhookTrigger';
import type { WebhookTrigger, WebhookTriggerOptions } from '../harness/webhookTrigger';

export type Emu = Awaited<ReturnType<typeof createEmulator>>;
export interface Hub {
	remove(id: number): boolean;
	faults: unknown[];
}

export const TRIGGER = 'accessPointTrigger';
export const NAME = 'AccessPoint Trigger';
export const ON_PEPPOL = { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' };

/** Registers the hooks (call it inside a describe); the returned getters are valid from beforeAll on. */
export function webhookSuite({ orders }: { orders: number }) {
	let h: Harness;
	let emu: Emu;
	const open: WebhookTrigger[] = [];

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders, config: { webhookRetryBaseMs: 50, webhookMaxAttempts: 3 } } });
		emu = h.emulator as Emu;
	});

	afterEach(async () => {
		for (const t of open.splice(0)) await t.close();
		await emu.webhooks.settle();
		const hub = (emu.webhooks as unknown as { hub: Hub }).hub;
		for (const w of emu.webhooks.list()) hub.remove(w.WebhookID as number);
		hub.faults.length = 0;
		emu.webhooks.clearDeliveries();
		emu.clearRequests();
	});

	afterAll(async () => {
		await h?.close();
	});

	const party = () => emu.credentials.partyId;

	/** A workflow with the trigger (maxRetries 0 unless the options say otherwise), closed after the test. */
	async function trigger(parameters: IDataObject, options: WebhookTriggerOptions = {}): Promise<WebhookTrigger> {
		const params = { ...parameters, options: { maxRetries: 0, ...((parameters.options as IDataObject) ?? {}) } };
		const t = await webhookTrigger(h, { type: TRIGGER, parameters: params }, options);
		open.push(t);
		return t;
	}

	/** Keeps a trigger made some other way to be closed after the test. */
	function keep(t: WebhookTrigger): WebhookTrigger {
		open.push(t);
		return t;
	}

	async function api(method: string, path: string, body?: unknown, partyId = party()): Promise<{ status: number; json: IDataObject }> {
		const res = await fetch(`${emu.url}${path}`, {
			method,
			headers: { apikey: emu.credentials.apiKey, partyID: partyId, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		return { status: res.status, json: text ? (JSON.parse(text) as IDataObject) : {} };
	}

	/** A sales document to a Peppol customer through POST /v1/orders; its OrderID. */
	async function createOrder({ partyId = party(), OrderType = 'Invoice' }: { partyId?: string; OrderType?: string } = {}): Promise<number> {
		const r = await api(
			'POST',
			'/v1/orders',
			{
				OrderType,
				OrderDirection: 'Income',
				OrderDate: '2024-03-01',
				Customer: ON_PEPPOL,
				OrderLines: [{ Quantity: 1, Description: 'Consulting', UnitPriceExcl: 100, VATPercentage: 21 }],
			},
			partyId,
		);
		expect(r.status).toBe(200);
		return Number(r.json.OrderID ?? r.json);
	}

	return {
		get h() {
			return h;
		},
		get emu() {
			return emu;
		},
		get party() {
			return party();
		},
		trigger,
		keep,
		api,
		createOrder,
	};
}
