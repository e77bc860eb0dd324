/**
 * The workflow templates in examples/: each file is checked for the shape n8n imports as is
 * (names, ids, positions, connections, parameters the node descriptions define, no secrets or
 * machine-specific ids), and each template is executed by n8n's engine (test/harness) against
 * the emulator, started the way n8n starts it, with assertions on what the final nodes output.
 */
import { DateTime } from 'luxon';
import type { IDataObject, INode, INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';
import { getGlobalState, NodeHelpers, Workflow } from 'n8n-workflow';

import type { createEmulator } from '../../emulator';
import { allowFileAccess, ARCHIVE_FOLDER, archiveTemplate, listExampleFiles, loadTemplate, SCENARIOS } from '../../scripts/demo';
import { createHarness, request } from '../harness';
import { webhookTrigger } from '../harness/webhookTrigger';
import type { Harness, HarnessResult, WorkflowJson } from '../harness';
import { fileSha256, joinPath, linkOutside, listFolder, removeFolder, sha256, tempFolder } from './fileSupport';

type Emu = Awaited<ReturnType<typeof createEmulator>>;

const PKG = 'n8n-nodes-access-point';
const STICKY = 'n8n-nodes-base.stickyNote';
const TEMPLATE_FILES = [
	'account-audit.json',
	'archive-invoice-files.json',
	'chase-undelivered-invoices.json',
	'chase-unpaid-invoices.json',
	'daily-order-export.json',
	'delivery-status-alerts.json',
	'new-invoices-feed.json',
	'onboard-company.json',
	'send-where-peppol-ready.json',
	'supplier-invoices-to-accounting.json',
	'sync-customers.json',
];
/** Core nodes that run in plain n8n-core (no task runner / isolated-vm, unlike the Code node). */
const CORE_NODES = new Set(
	[
		'manualTrigger',
		'scheduleTrigger',
		'set',
		'if',
		'filter',
		'merge',
		'noOp',
		'splitOut',
		'stickyNote',
		'aggregate',
		'sort',
		'limit',
		'switch',
		'readWriteFile',
		'removeDuplicates',
	].map((n) => `n8n-nodes-base.${n}`),
);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const template = (file: string): WorkflowJson => loadTemplate(file) as WorkflowJson;
const nodeOf = (wf: WorkflowJson, name: string) => {
	const node = wf.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`${name} is not in the template`);
	return node;
};
const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');
const isObject = (value: unknown): value is IDataObject => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * Parameter paths in `values` that the description does not define (recursing into
 * collections, fixed collections, options and resource locators). A name defined more than
 * once (per display options) passes when one definition accepts the value.
 */
function undefinedParameters(properties: INodeProperties[], values: IDataObject, at = ''): string[] {
	const problems: string[] = [];
	for (const [key, value] of Object.entries(values)) {
		const candidates = properties.filter((p) => p.name === key);
		if (!candidates.length) {
			problems.push(`${at}${key} (not a parameter of this node)`);
			continue;
		}
		const attempts = candidates.map((p) => valueProblems(p, value, `${at}${key}`));
		if (!attempts.some((a) => a.length === 0)) problems.push(...attempts[0]);
	}
	return problems;
}

function valueProblems(property: INodeProperties, value: unknown, at: string): string[] {
	if (isExpression(value)) return [];
	switch (property.type) {
		case 'collection':
			if (!isObject(value)) return [`${at} (a collection must be an object)`];
			return undefinedParameters(property.options as INodeProperties[], value, `${at}.`);
		case 'fixedCollection': {
			if (!isObject(value)) return [`${at} (a fixed collection must be an object)`];
			const problems: string[] = [];
			for (const [group, entries] of Object.entries(value)) {
				const option = (property.options as INodePropertyCollection[]).find((o) => o.name === group);
				if (!option) {
					problems.push(`${at}.${group} (not a group of this fixed collection)`);
					continue;
				}
				const multiple = property.typeOptions?.multipleValues === true;
				if (multiple !== Array.isArray(entries)) problems.push(`${at}.${group} (must be ${multiple ? 'a list' : 'an object'})`);
				const list = Array.isArray(entries) ? entries : [entries];
				list.forEach((entry, i) => {
					if (!isObject(entry)) problems.push(`${at}.${group}[${i}] (must be an object)`);
					else problems.push(...undefinedParameters(option.values, entry, `${at}.${group}[${i}].`));
				});
			}
			return problems;
		}
		case 'options': {
			if (property.typeOptions?.loadOptionsMethod) return [];
			const allowed = (property.options ?? []).map((o) => (o as { value: unknown }).value);
			return allowed.includes(value as string) ? [] : [`${at} = ${JSON.stringify(value)} (not one of ${JSON.stringify(allowed)})`];
		}
		case 'resourceLocator': {
			if (!isObject(value) || value.__rl !== true) return [`${at} (a resource locator needs { __rl: true, mode, value })`];
			const modes = (property.modes ?? []).map((m) => m.name);
			return modes.includes(value.mode as string) ? [] : [`${at}.mode = ${String(value.mode)} (not one of ${modes.join(', ')})`];
		}
		default:
			return [];
	}
}

/** n8n 2.x's canvas node (DEFAULT_NODE_SIZE in editor-ui); a sticky note defaults to 240 x 160. */
const NODE_SIZE = 100;

function stickyBox(sticky: { position?: number[]; parameters?: IDataObject }) {
	const [x, y] = sticky.position!;
	return { x, y, width: Number(sticky.parameters?.width ?? 240), height: Number(sticky.parameters?.height ?? 160) };
}

/**
 * How tall a sticky note's Markdown renders at `width`, estimated on the high side (14 px text,
 * about 7 px a character, 21 px a line; headings larger; 12 px padding). The e2e measures the
 * real text on the canvas (e2e/lib/browser.js).
 */
function stickyTextHeight(content: string, width: number): number {
	const inner = width - 24;
	let height = 12;
	for (const raw of content.split('\n')) {
		const line = raw.trim();
		if (!line) {
			height += 6;
			continue;
		}
		const [lineHeight, charWidth] = line.startsWith('## ') ? [30, 11] : line.startsWith('### ') ? [25, 9] : [21, 7.2];
		height += Math.max(1, Math.ceil(line.length / Math.floor(inner / charWidth))) * lineHeight;
	}
	return height;
}

/**
 * The credential types n8n 2.41's editor fills in when a workflow is imported (Import from File,
 * paste: useCanvasOperations importWorkflowData). A credential id the instance does not know is
 * dropped (the templates' id is ''); then a node without one gets the newest usable credential
 * among the types its credential options offer (useNodeCredentialOptions), judged on the
 * parameters AS IMPORTED, before defaults are filled in:
 * - a credential type counts when its displayOptions hold on those parameters;
 * - where a credential's `show` names the node's main auth field (`authentication`), the options
 *   are every credential type whose `show` names it ("mixed" credentials), else its own type.
 * A template whose node leaves out the default Authentication therefore gets nothing filled in,
 * and the node shows "Credentials ... not set" until opened (issue 28).
 */
function typesFilledOnImport(d: INodeTypeDescription, node: INode): string[] {
	const credentials = d.credentials ?? [];
	const authField = credentials.some((c) => c.displayOptions?.show && 'authentication' in c.displayOptions.show) ? 'authentication' : undefined;
	const mixedTypes = credentials.filter((c) => authField && c.displayOptions?.show && authField in c.displayOptions.show).map((c) => c.name);
	return credentials
		.filter((c) => !c.displayOptions || NodeHelpers.displayParameterPath(node.parameters ?? {}, c, '', node, d))
		.flatMap((c) => (authField && (!c.displayOptions?.show || authField in c.displayOptions.show) ? mixedTypes : [c.name]));
}

/** Every object key and string value of a JSON value. */
function walk(value: unknown, visit: (key: string | undefined, value: unknown) => void, key?: string): void {
	visit(key, value);
	if (Array.isArray(value)) value.forEach((v) => walk(v, visit));
	else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, visit, k);
}

describe('workflow templates (examples/*.json)', () => {
	let h: Harness;
	let emu: Emu;
	let party: string;

	beforeAll(async () => {
		h = await createHarness({ emulator: { orders: 1000 }, quiet: true });
		emu = h.emulator as Emu;
		party = emu.credentials.partyId;
	});

	afterAll(async () => {
		await h?.close();
	});

	const description = (node: { type: string; typeVersion?: number }): INodeTypeDescription =>
		h.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;

	it('ships the eleven templates, and the demo has a scenario for every file in examples/', () => {
		expect(listExampleFiles()).toEqual(TEMPLATE_FILES);
		expect(SCENARIOS.map((s: { file: string }) => s.file).sort()).toEqual(TEMPLATE_FILES);
	});

	describe.each(TEMPLATE_FILES)('%s imports into n8n as it is', (file) => {
		// A fresh copy per test: n8n's Workflow class rewrites the parameters of the nodes it is given.
		let wf: WorkflowJson;
		let working: WorkflowJson['nodes'];

		beforeEach(() => {
			wf = template(file);
			working = wf.nodes.filter((n) => n.type !== STICKY);
		});

		it('is an n8n export without instance ids, pinned data or activation', () => {
			expect(typeof wf.name).toBe('string');
			expect(String(wf.name).length).toBeGreaterThan(10);
			expect(Array.isArray(wf.nodes)).toBe(true);
			expect(isObject(wf.connections)).toBe(true);
			for (const key of Object.keys(wf)) expect(['name', 'nodes', 'pinData', 'connections', 'active', 'settings', 'tags', 'meta']).toContain(key);
			expect(wf.active ?? false).toBe(false);
			expect(wf.pinData ?? {}).toEqual({});
			expect((wf.meta as IDataObject | undefined)?.instanceId).toBeUndefined();
			expect(wf.settings).toEqual({ executionOrder: 'v1' });
		});

		it('has nodes with unique names and ids, a position and a type version n8n knows', () => {
			const names = wf.nodes.map((n) => n.name);
			const ids = wf.nodes.map((n) => n.id);
			expect(new Set(names).size).toBe(names.length);
			expect(new Set(ids).size).toBe(ids.length);
			for (const node of wf.nodes) {
				expect(node.id).toMatch(UUID);
				expect(node.position).toEqual([expect.any(Number), expect.any(Number)]);
				expect(node.position!.every((p) => Number.isFinite(p))).toBe(true);
				expect(typeof node.typeVersion).toBe('number');
				expect(node.type.startsWith(`${PKG}.`) || CORE_NODES.has(node.type)).toBe(true);
				const versions = [description(node).version].flat();
				expect(versions).toContain(node.typeVersion);
				expect(isObject(node.parameters)).toBe(true);
			}
		});

		it('connects existing nodes through outputs they have, from one start node that reaches every node', () => {
			const workflow = new Workflow({
				nodes: template(file).nodes as INode[],
				connections: wf.connections as never,
				active: false,
				nodeTypes: h.nodeTypes,
			});
			const names = new Set(wf.nodes.map((n) => n.name));
			const incoming = new Map<string, number>();
			const edges = new Map<string, string[]>();
			for (const [source, byType] of Object.entries(wf.connections as Record<string, Record<string, unknown>>)) {
				expect(names.has(source)).toBe(true);
				expect(Object.keys(byType)).toEqual(['main']);
				const outputs = byType.main as Array<Array<{ node: string; type: string; index: number }>>;
				const node = nodeOf(wf, source) as INode;
				const declared = NodeHelpers.getNodeOutputs(workflow, node, description(node));
				expect(outputs.length).toBeLessThanOrEqual(declared.length);
				for (const output of outputs) {
					for (const target of output) {
						expect(names.has(target.node)).toBe(true);
						expect(nodeOf(wf, target.node).type).not.toBe(STICKY);
						expect(target).toEqual({ node: target.node, type: 'main', index: 0 });
						incoming.set(target.node, (incoming.get(target.node) ?? 0) + 1);
						edges.set(source, [...(edges.get(source) ?? []), target.node]);
					}
				}
			}
			const starts = working.filter((n) => !incoming.has(n.name));
			expect(starts).toHaveLength(1);
			const start = description(starts[0]);
			expect(start.group.includes('trigger') || start.polling === true).toBe(true);
			const reached = new Set([starts[0].name]);
			const queue = [starts[0].name];
			while (queue.length) for (const next of edges.get(queue.shift()!) ?? []) if (!reached.has(next) && reached.add(next)) queue.push(next);
			expect([...reached].sort()).toEqual(working.map((n) => n.name).sort());
		});

		it('sets only parameters the node descriptions define, and n8n keeps every one of them on import', () => {
			for (const node of wf.nodes) {
				const d = description(node);
				expect({ node: node.name, problems: undefinedParameters(d.properties, node.parameters ?? {}) }).toEqual({ node: node.name, problems: [] });
				// What the editor does with an imported node: resolve its parameters against the description.
				const resolved = NodeHelpers.getNodeParameters(d.properties, node.parameters ?? {}, true, false, node as INode, d);
				expect(resolved).toMatchObject(node.parameters ?? {});
			}
		});

		it('references the AccessPoint credential by type only and holds no secrets or machine-specific values', () => {
			for (const node of wf.nodes) {
				const wanted = (description(node).credentials ?? []).map((c) => c.name);
				if (node.type.startsWith(`${PKG}.`)) expect(wanted).toEqual(['accessPointApi', 'accessPointOAuth2Api']);
				if (!node.credentials) continue;
				expect(Object.keys(node.credentials)).toEqual(['accessPointApi']);
				expect(node.credentials.accessPointApi).toEqual({ id: '', name: 'AccessPoint account' });
			}
			const secretKeys = /^(api_?key|password|secret|token|access_?token|technicalUserKey)$/i;
			walk(wf, (key, value) => {
				if (key !== undefined) expect(key).not.toMatch(secretKeys);
				if (typeof value === 'string') {
					expect(value).not.toMatch(/emu-(other-)?api-key|127\.0\.0\.1|localhost|\/webhook-waiting\//);
					// Something that looks like a key or token (UUIDs are node and field ids).
					if (!UUID.test(value)) expect(value).not.toMatch(/^(?=.*\d)(?=.*[a-zA-Z])[A-Za-z0-9_-]{20,}$/);
				}
			});
		});

		it("picks the user's AccessPoint API credential when imported in the editor (Import from File, paste)", () => {
			for (const node of working.filter((n) => n.type.startsWith(`${PKG}.`))) {
				const offered = typesFilledOnImport(description(node), node as INode);
				expect({ node: node.name, offered }).toEqual({ node: node.name, offered: expect.arrayContaining(['accessPointApi']) });
				// The API key is the template's way in; OAuth2 users switch Authentication (README).
				expect(node.parameters?.authentication).toBe('apiKey');
			}
		});

		it('explains itself in sticky notes, including how to set up the credential', () => {
			const notes = wf.nodes.filter((n) => n.type === STICKY).map((n) => String(n.parameters?.content ?? ''));
			expect(notes.length).toBeGreaterThanOrEqual(2);
			for (const note of notes) expect(note.trim().length).toBeGreaterThan(40);
			expect(notes[0]).toMatch(/^## /);
			expect(notes.join('\n')).toMatch(/\*\*AccessPoint API\*\* credential/);
		});

		it('words its sticky notes as n8n 2.x does: the workflow is published, not activated', () => {
			for (const sticky of wf.nodes.filter((n) => n.type === STICKY)) {
				// A node's name in bold is not the wording (onboarding's "Activate Peppol" switches on a network).
				const names = new Set(working.map((n) => n.name));
				const text = String(sticky.parameters?.content ?? '').replace(/\*\*([^*]+)\*\*/g, (m, name: string) => (names.has(name) ? '' : m));
				expect({ note: sticky.name, activate: text.match(/\bactivat\w*/gi) ?? [] }).toEqual({ note: sticky.name, activate: [] });
			}
		});

		it("keeps each sticky note's text clear of nodes (n8n draws notes behind nodes) and inside the note", () => {
			for (const sticky of wf.nodes.filter((n) => n.type === STICKY)) {
				const { x, y, width, height } = stickyBox(sticky);
				const textBottom = y + stickyTextHeight(String(sticky.parameters?.content ?? ''), width);
				const hiding = working
					.filter((n) => n.position![0] < x + width && n.position![0] + NODE_SIZE > x && n.position![1] < textBottom && n.position![1] + NODE_SIZE > y)
					.map((n) => n.name);
				expect({ note: sticky.name, hiddenBehind: hiding, overflows: textBottom > y + height }).toEqual({
					note: sticky.name,
					hiddenBehind: [],
					overflows: false,
				});
			}
		});
	});

	// ---- execution ---------------------------------------------------------------------------

	/** The template with the values of its "Company details" node replaced (as a user fills it in). */
	function onboardingFor(company: Record<string, string>): WorkflowJson {
		const wf = template('onboard-company.json');
		const details = nodeOf(wf, 'Company details');
		const assignments = (details.parameters!.assignments as { assignments: Array<{ name: string; value: unknown }> }).assignments;
		for (const a of assignments) if (company[a.name] !== undefined) a.value = company[a.name];
		return wf;
	}

	const lastRequest = (method: string, path: string) =>
		[...emu.requests].reverse().find((r: { method: string; path: string }) => r.method === method && r.path === path);

	describe('onboard-company.json', () => {
		async function startOnboarding(wf: WorkflowJson) {
			emu.clearRequests();
			const waiting = await h.run(wf);
			expect(waiting.status).toBe('waiting');
			expect(waiting.waiting?.nodeName).toBe('Identify the signatory');
			// While it waits, no branch gets an item (the canvas would draw "1 item" on it) ...
			expect(waiting.outputs('Identify the signatory')).toEqual([[], []]);
			// ... and the editor's waiting tooltip links to the run's resume URL, which leads to the provider.
			const link = String(waiting.task('Identify the signatory')?.metadata?.resumeUrl);
			expect(link).toBe(waiting.resumeUrl);
			const { response, result } = await h.resume(waiting, { url: link });
			expect([response.status, result]).toEqual([302, undefined]);
			const providerUrl = String(response.headers.location);
			expect(providerUrl).toMatch(/\/provider\//);
			return { waiting, providerUrl };
		}

		it('registers the company, activates Peppol, waits for the signatory and ends on "Identified"', async () => {
			const { waiting, providerUrl } = await startOnboarding(template('onboard-company.json'));
			const [registration] = waiting.output('Register the company');
			const id = registration.RegistrationID as number;
			expect(lastRequest('POST', '/v1/einvoices/registrations')?.body).toEqual({
				TaxIdentifier: 'BE0477123402',
				CompanyName: 'Acme Onboarding BV',
				Email: 'finance@acme-onboarding.example',
				ContactFirstName: 'Jan',
				ContactLastName: 'Peeters',
				Language: 'NL',
				TaxLiable: true,
				TaxDeductable: true,
				Addresses: [{ AddressType: 'InvoiceAddress', Street: 'Kerkstraat', StreetNumber: '12', Zipcode: '9000', City: 'Gent', CountryCode: 'BE' }],
			});
			expect(lastRequest('POST', `/v1/einvoices/registrations/${id}/integrations`)?.body).toEqual({ ExternalProvider: 'Peppol' });
			expect(lastRequest('POST', `/v1/einvoices/registrations/${id}/identification`)?.body).toEqual({
				IdentificationProviderTC: 'itsme',
				RedirectURL: waiting.resumeUrl,
			});
			expect(emu.store.registrations.get(id)?.Integrations).toEqual([expect.objectContaining({ Integration: 'Peppol', IntegrationStatus: 'Active' })]);

			const provider = await emu.provider.complete(providerUrl, 'success');
			expect(provider.location?.startsWith(waiting.resumeUrl!)).toBe(true);
			const { response, result } = await h.resume(waiting, { url: provider.location! });
			expect(response.status).toBe(200);
			expect(result?.status).toBe('success');
			expect(result!.output('Ready to send invoices')).toEqual([
				{
					RegistrationID: id,
					CompanyName: 'Acme Onboarding BV',
					Identified: true,
					PeppolStatus: 'Active',
					NextStep: expect.stringContaining('Act for Party'),
				},
			]);
			expect(result!.executed('Not identified: follow up')).toBe(false);
			expect(emu.store.registrations.get(id)?.Identified).toBe(true);
		});

		it('ends on "Not identified: follow up" when the signatory fails the check', async () => {
			const wf = onboardingFor({ companyName: 'Beta Failing BV', email: 'finance@beta-failing.example', vatNumber: 'BE0812345603' });
			const { waiting, providerUrl } = await startOnboarding(wf);
			const provider = await emu.provider.complete(providerUrl, 'failure');
			const { result } = await h.resume(waiting, { url: provider.location! });
			expect(result?.status).toBe('success');
			const id = waiting.output('Register the company')[0].RegistrationID as number;
			expect(result!.output('Not identified: follow up')).toEqual([
				{
					RegistrationID: id,
					CompanyName: 'Beta Failing BV',
					Identified: false,
					Reason: 'failed',
					Message: expect.any(String),
					NextStep: expect.stringContaining('new identification'),
				},
			]);
			expect(result!.executed('Ready to send invoices')).toBe(false);
			expect(emu.store.registrations.get(id)?.Identified).toBe(false);
		});

		it('ends on "Not identified: follow up" with reason expired when nobody comes back', async () => {
			const wf = onboardingFor({ companyName: 'Gamma Late BV', email: 'finance@gamma-late.example', vatNumber: 'BE0808080868' });
			const { waiting } = await startOnboarding(wf);
			const expired = await h.expire(waiting);
			expect(expired.status).toBe('success');
			expect(expired.output('Not identified: follow up')).toEqual([
				expect.objectContaining({ CompanyName: 'Gamma Late BV', Identified: false, Reason: 'expired' }),
			]);
			expect(expired.executed('Ready to send invoices')).toBe(false);
		});
	});

	describe('send-where-peppol-ready.json', () => {
		/** $today as the engine sees it: the workflow sets no time zone, so n8n's default applies. */
		const today = () => DateTime.now().setZone(getGlobalState().defaultTimezone).toFormat('yyyy-MM-dd');
		const ordersOf = (ids: string[]) => emu.store.listOrders(party).filter((o: IDataObject) => ids.includes(String(o.ExternalProviderID)));

		const sentRow = (invoiceId: string, customer: string, vat: string, sentBefore: boolean) => ({
			invoiceId,
			OrderID: expect.any(Number),
			Customer: customer,
			CustomerVAT: vat,
			PeppolIdentifier: `9925:${vat}`,
			Sent: true,
			SentBefore: sentBefore,
			OrderStatus: 'Sent',
			SentVia: 'Peppol',
			DeliveryStatus: 'Pending',
		});

		it('creates and sends (strict Peppol) the invoices of customers that can receive, and routes the others to the fallback', async () => {
			emu.clearRequests();
			const result = (await h.run(template('send-where-peppol-ready.json'))).assertSuccess();
			const [can, cannot] = result.outputs('Can the customer receive on Peppol?');
			expect(can.map((i) => i.invoiceId)).toEqual(['DEMO-2001', 'DEMO-2002']);
			expect(cannot.map((i) => i.invoiceId)).toEqual(['DEMO-2003', 'DEMO-2004']);
			expect(result.output('Create the invoice').map((o) => o.AlreadyExisted)).toEqual([false, false]);

			const sent = result.output('Invoice sent');
			expect(sent).toEqual([sentRow('DEMO-2001', 'Peppol Demo Belgium NV', 'BE0123456749', false), sentRow('DEMO-2002', 'Café Zoë BV', 'BE0456789133', false)]);
			const posts = emu.requests.filter((r: { method: string }) => r.method === 'POST');
			expect(posts.map((r: { path: string }) => r.path.replace(/\/$/, ''))).toEqual(['/v1/orders', '/v1/orders', '/v1/orders/commands/send']);
			expect(posts[0].body).toMatchObject({
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				OrderDate: today(),
				ExternalProviderID: 'DEMO-2001',
				Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' },
				OrderLines: [{ Quantity: 8, Description: 'Consulting, March', UnitPriceExcl: 95, VATPercentage: 21 }],
			});
			expect(posts[2].body).toEqual({ Transporttype: 'Peppol', OrderIDs: [sent[0].OrderID, sent[1].OrderID] });
			expect(posts[2].headers.stricttransporttype).toBe('true');

			const stored = ordersOf(['DEMO-2001', 'DEMO-2002', 'DEMO-2003', 'DEMO-2004']);
			expect(stored.map((o: IDataObject) => [o.OrderID, o.ExternalProviderID, (o.Customer as IDataObject).VATNumber, o.TotalExcl, o.IsSent])).toEqual([
				[sent[0].OrderID, 'DEMO-2001', 'BE0123456749', 760, true],
				[sent[1].OrderID, 'DEMO-2002', 'BE0456789133', 240, true],
			]);

			const next = 'Send this invoice by e-mail or post, or ask the customer for their Peppol identifier.';
			const fallback = [
				{ invoiceId: 'DEMO-2003', Customer: 'A+B Consulting', CustomerVAT: 'BE1002003070', Reason: 'Not registered on Peppol', NextStep: next },
				{
					invoiceId: 'DEMO-2004',
					Customer: 'Response Only Services SRL',
					CustomerVAT: 'BE0887766566',
					Reason: 'Registered on Peppol, but does not accept invoices (accepts: IMR, MLR)',
					NextStep: next,
				},
			];
			expect(result.output('FALLBACK: not on Peppol')).toEqual(fallback);
			expect(result.output('Handle outside Peppol')).toEqual(fallback);
		});

		it('neither creates nor delivers the same invoices twice on a second run', async () => {
			const before = ordersOf(['DEMO-2001', 'DEMO-2002']);
			emu.clearRequests();
			const result = (await h.run(template('send-where-peppol-ready.json'))).assertSuccess();
			expect(result.output('Create the invoice').map((o) => [o.OrderID, o.AlreadyExisted])).toEqual(before.map((o: IDataObject) => [o.OrderID, true]));
			expect(result.output('Invoice sent')).toEqual([
				sentRow('DEMO-2001', 'Peppol Demo Belgium NV', 'BE0123456749', true),
				sentRow('DEMO-2002', 'Café Zoë BV', 'BE0456789133', true),
			]);
			const posts = emu.requests.filter((r: { method: string }) => r.method === 'POST');
			expect(posts.map((r: { path: string; status: number | null }) => [r.path, r.status])).toEqual([['/v1/orders/commands/send', 409]]);
			expect(ordersOf(['DEMO-2001', 'DEMO-2002'])).toEqual(before);
		});
	});

	describe('daily-order-export.json', () => {
		it('starts from the schedule, reads every order changed since the start of yesterday across pages and outputs flat rows', async () => {
			const now = emu.clock.now().getTime();
			const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
			const fresh = Array.from({ length: 130 }, () => emu.store.addOrder(party, {}).OrderID as number);
			const old = emu.store.addOrder(party, { Created: iso(now - 3 * 86_400_000), LastModified: iso(now - 3 * 86_400_000) }).OrderID;
			emu.clearRequests();

			const result = (await h.run(template('daily-order-export.json'))).assertSuccess();

			// The Schedule Trigger ran as n8n runs it from the editor; its day is the workflow's time zone.
			const [tick] = result.output('Every morning at 6:00');
			const zone = String(tick.Timezone).split(' ')[0];
			const since = DateTime.fromISO(String(tick.timestamp)).setZone(zone).startOf('day').minus({ days: 1 }).toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss");
			const gets = emu.requests.filter((r: { path: string }) => r.path === '/v1/orders');
			expect(gets[0].query).toMatchObject({ $filter: `LastModified ge DateTime'${since}'`, $orderby: 'LastModified,OrderID' }); // Return All: OrderID breaks ties (paging.ts)
			expect(gets.length).toBeGreaterThanOrEqual(2); // Return All followed the next-page link

			const expected = emu.store
				.listOrders(party)
				.filter((o: IDataObject) => String(o.LastModified) >= `${since}Z`)
				.sort((a: IDataObject, b: IDataObject) => String(a.LastModified).localeCompare(String(b.LastModified)) || Number(a.OrderID) - Number(b.OrderID));
			const rows = result.output('Export row');
			expect(rows.map((r) => r.OrderID).sort()).toEqual(expected.map((o: IDataObject) => o.OrderID).sort());
			expect(rows.map((r) => r.OrderID)).toEqual(expect.arrayContaining(fresh));
			expect(rows.map((r) => r.OrderID)).not.toContain(old);
			expect(rows.map((r) => r.LastModified)).toEqual(expected.map((o: IDataObject) => o.LastModified));

			const columns = [
				'OrderID',
				'OrderNumber',
				'OrderType',
				'Direction',
				'OrderDate',
				'DueDate',
				'CounterParty',
				'CounterPartyVAT',
				'TotalExcl',
				'TotalVAT',
				'TotalIncl',
				'Currency',
				'Status',
				'Paid',
				'LastModified',
			];
			for (const row of rows) {
				expect(Object.keys(row)).toEqual(columns);
				for (const value of Object.values(row)) expect(value === null || typeof value !== 'object').toBe(true);
			}
			const byId = new Map(expected.map((o: IDataObject) => [o.OrderID, o]));
			const sample = rows[rows.length - 1];
			const order = byId.get(sample.OrderID) as IDataObject;
			expect(sample).toEqual({
				OrderID: order.OrderID,
				OrderNumber: order.OrderNumber,
				OrderType: order.OrderType,
				Direction: order.OrderDirection,
				OrderDate: order.OrderDate,
				DueDate: order.ExpiryDate,
				CounterParty: (order.CounterParty as IDataObject).DisplayName,
				CounterPartyVAT: (order.CounterParty as IDataObject).VATNumber ?? '',
				TotalExcl: order.TotalExcl,
				TotalVAT: order.TotalVAT,
				TotalIncl: order.TotalIncl,
				Currency: order.Currency,
				Status: order.OrderStatus,
				Paid: order.Paid,
				LastModified: order.LastModified,
			});
		});
	});

	describe('new-invoices-feed.json', () => {
		it('emits nothing at activation, then one item per new sales invoice, each only once', async () => {
			const poller = h.poller(template('new-invoices-feed.json'));
			const activation = await poller.poll({ execute: true });
			expect(activation.items).toBeNull();
			expect(activation.execution).toBeUndefined();

			const add = (order: IDataObject) => emu.store.addOrder(party, order) as IDataObject;
			const first = add({
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				Customer: { Name: 'Klant NV', VATNumber: 'BE0123456749' },
				OrderLines: [{ Quantity: 2, Description: 'x', UnitPriceExcl: 50, VATPercentage: 21 }],
			});
			add({ OrderType: 'Invoice', OrderDirection: 'Cost' });
			add({ OrderType: 'CreditNote', OrderDirection: 'Income' });
			const second = add({ OrderType: 'Invoice', OrderDirection: 'Income' });
			emu.clearRequests();

			const polled = await poller.poll({ execute: true });
			expect(emu.requests[0].query.$filter).toMatch(/^OrderType eq 'Invoice' and OrderDirection eq 'Income' and /);
			expect(polled.items?.map((o) => o.OrderID)).toEqual([first.OrderID, second.OrderID]);
			const execution = polled.execution as HarnessResult;
			expect(execution.status).toBe('success');
			expect(execution.output('Invoice summary')).toEqual([
				{
					OrderID: first.OrderID,
					OrderNumber: first.OrderNumber,
					OrderDate: first.OrderDate,
					DueDate: first.ExpiryDate,
					Customer: 'Klant NV',
					CustomerVAT: 'BE0123456749',
					TotalExcl: 100,
					TotalIncl: 121,
					Currency: 'EUR',
					Status: 'Draft',
					Created: first.Created,
				},
				expect.objectContaining({ OrderID: second.OrderID, OrderNumber: second.OrderNumber, Customer: (second.Customer as IDataObject).Name }),
			]);

			const again = await poller.poll({ execute: true });
			expect(again.items).toBeNull();
			expect(again.execution).toBeUndefined();
		});
	});

	describe('chase-undelivered-invoices.json', () => {
		const DAY = 86_400_000;

		/** Sales invoices sent over Peppol `daysAgo` days ago (emulator clock), each then moved to its outcome. */
		async function sentInvoices(daysAgo: number, outcomes: Array<'Pending' | 'Delivered' | 'Error' | 'Refused'>): Promise<number[]> {
			const saved = emu.config.deliveryOutcome;
			emu.config.deliveryOutcome = 'Pending';
			emu.clock.advance(-daysAgo * DAY);
			try {
				const ids: number[] = [];
				for (const outcome of outcomes) {
					const order = {
						OrderType: 'Invoice',
						OrderDirection: 'Income',
						OrderDate: '2024-05-02',
						Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749' },
						OrderLines: [{ Quantity: 1, Description: `${outcome} case`, UnitPriceExcl: 100, VATPercentage: 21 }],
					};
					const headers = { apikey: emu.credentials.apiKey, partyID: party, 'content-type': 'application/json' };
					const id = Number(await (await fetch(`${emu.url}/v1/orders`, { method: 'POST', headers, body: JSON.stringify(order) })).text());
					const send = await fetch(`${emu.url}/v1/orders/commands/send`, {
						method: 'POST',
						headers,
						body: JSON.stringify({ Transporttype: 'Peppol', OrderIDs: [id] }),
					});
					expect(send.status).toBe(200);
					if (outcome !== 'Pending')
						emu.delivery.set(
							id,
							outcome,
							outcome === 'Refused' ? { reason: 'REF', info: 'Unknown purchase order' } : { info: 'Receiver AP rejected the document' },
						);
					ids.push(id);
				}
				return ids;
			} finally {
				emu.clock.advance(daysAgo * DAY);
				emu.config.deliveryOutcome = saved;
			}
		}

		it('every morning: sent, unpaid invoices with no news for a day, their delivery status, and the failed or refused ones to the follow-up branch', async () => {
			const [pending, delivered, failed, refused] = await sentInvoices(3, ['Pending', 'Delivered', 'Error', 'Refused']);
			const [recentFailure] = await sentInvoices(0, ['Error']);
			emu.clearRequests();

			const result = (await h.run(template('chase-undelivered-invoices.json'))).assertSuccess();

			// The list: the filter builder's conditions, every page.
			const [list] = emu.requests.filter((r: { path: string }) => r.path === '/v1/orders');
			expect(list.query.$filter).toMatch(
				/^OrderType eq 'Invoice' and OrderDirection eq 'Income' and IsSent eq true and OrderStatus ne 'Paid' and OrderStatus ne 'Credited' and LastModified lt DateTime'[\dT:-]+' and LastModified ge DateTime'[\dT:-]+'$/,
			);
			const listed = result.output('Sent invoices to check').map((o) => o.OrderID as number);
			expect(listed).toEqual(expect.arrayContaining([pending, delivered, failed, refused]));
			expect(listed).not.toContain(recentFailure);
			const now = emu.clock.now().getTime();
			for (const order of result.output('Sent invoices to check')) {
				expect(order).toMatchObject({ OrderType: 'Invoice', OrderDirection: 'Income', IsSent: true });
				expect(['Paid', 'Credited']).not.toContain(order.OrderStatus);
				const age = now - Date.parse(String(order.LastModified));
				expect(age).toBeGreaterThan(DAY);
				expect(age).toBeLessThan(31 * DAY);
			}

			// One status read per listed invoice, routed by what the service says about each.
			const [onDelivered, onPending, onProblem] = result.outputs('Delivery status');
			expect(onDelivered.length + onPending.length + onProblem.length).toBe(listed.length);
			const truth = (id: number) => (emu.delivery.get(id) ?? {}) as IDataObject;
			for (const item of onProblem) {
				const details = truth(item.OrderID as number);
				expect(details.DocumentRefusedDate || details.DocumentDeliveryStatus === 'Error').toBeTruthy();
			}
			for (const item of onDelivered) expect(truth(item.OrderID as number)).toMatchObject({ DocumentDeliveryStatus: 'Delivered', DocumentRefusedDate: null });
			expect(onDelivered.map((o) => o.OrderID)).toContain(delivered);
			expect(result.output('Still pending: check again tomorrow').map((o) => o.OrderID)).toContain(pending);

			// The follow-up branch: the failed and the refused invoice, with what to do.
			const followUp = result.output('FOLLOW UP: not delivered');
			expect(followUp.map((o) => o.OrderID)).toEqual(onProblem.map((o) => o.OrderID));
			const number = (id: number) => emu.store.findOrder(id)?.order.OrderNumber;
			expect(followUp.find((o) => o.OrderID === failed)).toEqual({
				OrderID: failed,
				OrderNumber: number(failed),
				Customer: 'Peppol Demo Belgium NV',
				Problem: 'Error',
				Reason: 'Receiver AP rejected the document',
				ReasonCode: '',
				Since: '',
				NextStep: expect.stringContaining('Peppol identifier'),
			});
			expect(followUp.find((o) => o.OrderID === refused)).toEqual({
				OrderID: refused,
				OrderNumber: number(refused),
				Customer: 'Peppol Demo Belgium NV',
				Problem: 'Refused',
				Reason: 'Unknown purchase order',
				ReasonCode: 'REF',
				Since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
				NextStep: expect.stringContaining('credit note'),
			});
			expect(result.output('Chase the customer')).toEqual(followUp);
		});
	});

	describe('chase-unpaid-invoices.json', () => {
		// Calendar days before today in the workflow's time zone, as its $today counts them: a UTC date is a day off
		// around midnight, and 45 × 24 h back crosses a daylight-saving change (an hour off near midnight).
		const daysAgo = (days: number) => DateTime.now().setZone(getGlobalState().defaultTimezone).startOf('day').minus({ days }).toFormat('yyyy-MM-dd');
		/** One workflow (its id), as n8n keeps Remove Duplicates' memory per workflow. */
		const chase = () => ({ ...template('chase-unpaid-invoices.json'), id: 'test-chase-unpaid-invoices' });
		const headers = () => ({ apikey: emu.credentials.apiKey, partyID: party, 'content-type': 'application/json' });
		async function call(method: string, path: string, body: unknown): Promise<unknown> {
			const res = await fetch(`${emu.url}${path}`, { method, headers: headers(), body: JSON.stringify(body) });
			expect(res.status).toBe(200);
			const text = await res.text();
			return text ? JSON.parse(text) : undefined;
		}
		/** A sales invoice of 302.50 due `dueDaysAgo` days ago (negative: still to come), sent over Peppol unless `send` is false. */
		async function invoice(dueDaysAgo: number, { send = true, direction = 'Income' } = {}): Promise<number> {
			const id = Number(
				await call('POST', '/v1/orders', {
					OrderType: 'Invoice',
					OrderDirection: direction,
					OrderDate: daysAgo(dueDaysAgo + 30),
					ExpiryDate: daysAgo(dueDaysAgo),
					Customer: { Name: 'Herinnering BV', VATNumber: 'BE0123456749', Email: 'boekhouding@herinnering.example', PartyType: 'Customer' },
					Supplier: direction === 'Cost' ? { Name: 'Supplier NV' } : undefined,
					OrderLines: [{ Quantity: 1, Description: 'Consulting', UnitPriceExcl: 250, VATPercentage: 21 }],
				}),
			);
			if (send) await call('POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] });
			return id;
		}
		const pay = (id: number, amount: number) =>
			call('POST', `/v1/orders/${id}/payments`, { Amount: amount, Date: daysAgo(1), Description: `test-${id}-${amount}` });

		it('reminds each sent sales invoice past due that still owes money, once per stage (first, second, final notice)', async () => {
			const { installDeduplicationStore } = await import('../harness/webhookTrigger');
			installDeduplicationStore(h.loaded.env.core);
			const first = await invoice(3);
			const second = await invoice(20);
			const final = await invoice(45);
			const partlyPaid = await invoice(5);
			await pay(partlyPaid, 100);
			const paid = await invoice(10);
			await pay(paid, 302.5);
			const notDue = await invoice(-10);
			const dueToday = await invoice(0);
			const neverSent = await invoice(30, { send: false });
			const purchase = await invoice(30, { direction: 'Cost' });
			emu.clearRequests();

			const run1 = (await h.run(chase())).assertSuccess();

			// The list: what the published OData allows (eq, a date compared with le), every page; then each invoice read whole.
			const lists = emu.requests.filter((r: { path: string }) => r.path === '/v1/orders');
			const yesterday = DateTime.now().setZone(getGlobalState().defaultTimezone).minus({ days: 1 }).toFormat('yyyy-MM-dd');
			expect(lists[0].query).toMatchObject({
				$filter: `OrderType eq 'Invoice' and OrderDirection eq 'Income' and IsSent eq true and Paid eq false and ExpiryDate le DateTime'${yesterday}'`,
				$orderby: 'ExpiryDate,OrderID', // Return All: OrderID breaks ties (paging.ts)
			});
			const listed = run1.output('Unpaid invoices past due').map((o) => o.OrderID as number);
			expect(listed).toEqual(expect.arrayContaining([first, second, final, partlyPaid]));
			for (const id of [paid, notDue, dueToday, neverSent, purchase]) expect(listed).not.toContain(id);
			const reads = emu.requests.filter((r: { method: string; path: string }) => r.method === 'GET' && /^\/v1\/orders?\/\d+$/.test(r.path));
			expect(reads).toHaveLength(listed.length);

			const [owing] = run1.outputs('Still owes money?');
			for (const o of owing) {
				expect(o.ToPay as number).toBeGreaterThan(0);
				expect(['Paid', 'Credited', 'Canceled', 'Refused']).not.toContain(o.OrderStatus);
			}
			const sent = run1.output('Send the reminder');
			expect(sent.map((r) => r.OrderID).sort()).toEqual(owing.map((o) => o.OrderID).sort());
			const byId = new Map(sent.map((r) => [r.OrderID as number, r]));
			const number = (id: number) => emu.store.findOrder(id)?.order.OrderNumber as string;
			const reference = (id: number) => emu.store.findOrder(id)?.order.PaymentReference as string;
			expect(byId.get(final)).toEqual({
				OrderID: final,
				OrderNumber: number(final),
				Customer: 'Herinnering BV',
				CustomerEmail: 'boekhouding@herinnering.example',
				AmountDue: 302.5,
				Currency: 'EUR',
				DueDate: daysAgo(45),
				DaysOverdue: 45,
				PaymentReference: reference(final),
				Stage: 'final notice',
				ReminderKey: `${final}:final notice`,
				Subject: `Final notice: invoice ${number(final)} is 45 days overdue`,
				// The amount as a Belgian reads it (no Language on this customer: Dutch), € 302,50, not EUR 302.50.
				Message: `Our invoice ${number(final)} of €\u00a0302,50, due on ${daysAgo(45)}, is still unpaid (45 days overdue). Please pay it with payment reference ${reference(final)}. This is our final reminder. If you have paid it already, please ignore this message.`,
			});
			expect(byId.get(second)).toMatchObject({
				Stage: 'second reminder',
				DaysOverdue: 20,
				Subject: `Payment reminder: invoice ${number(second)} is 20 days overdue`,
			});
			expect(byId.get(first)).toMatchObject({ Stage: 'first reminder', DaysOverdue: 3 });
			expect(byId.get(partlyPaid)).toMatchObject({ Stage: 'first reminder', AmountDue: 202.5 });
			expect(String(byId.get(first)!.Message)).not.toContain('final reminder');

			// The same day again: nothing is sent twice.
			const run2 = (await h.run(chase())).assertSuccess();
			expect(
				run2
					.output('Reminder to send')
					.map((r) => r.OrderID)
					.sort(),
			).toEqual(sent.map((r) => r.OrderID).sort());
			expect(run2.executed('Send the reminder')).toBe(false);

			// Two weeks later (the due date moved back 14 days): the 3-day invoice reaches the second stage, once.
			emu.store.findOrder(first)!.order.ExpiryDate = daysAgo(17);
			const run3 = (await h.run(chase())).assertSuccess();
			expect(run3.output('Send the reminder')).toEqual([expect.objectContaining({ OrderID: first, Stage: 'second reminder', DaysOverdue: 17 })]);
			const run4 = (await h.run(chase())).assertSuccess();
			expect(run4.executed('Send the reminder')).toBe(false);
		});
	});

	describe('archive-invoice-files.json', () => {
		/** The name the template gives an invoice's files (its Name the files node). */
		const archiveName = (order: IDataObject, party: string) => `${String(order.OrderDirection)}_${party}_${String(order.OrderNumber)}_${String(order.OrderID)}`;

		it("writes the PDF and UBL of every invoice to the folder under a name unique per invoice, byte-identical to the emulator's files (#33)", async () => {
			const folder = tempFolder('ap-archive-test-');
			allowFileAccess(folder);
			const shipped = template('archive-invoice-files.json');
			expect(shipped.nodes.filter((n) => n.type === 'n8n-nodes-base.readWriteFile').map((n) => [n.parameters?.fileName, n.onError])).toEqual([
				[`=${ARCHIVE_FOLDER}{{ $json.ArchiveName }}.pdf`, 'continueErrorOutput'],
				[`=${ARCHIVE_FOLDER}{{ $json.ArchiveName }}.xml`, 'continueErrorOutput'],
			]);
			try {
				const poller = h.poller(archiveTemplate(shipped, folder));
				expect((await poller.poll({ execute: true })).items).toBeNull();

				const add = (order: IDataObject) => emu.store.addOrder(party, order) as IDataObject;
				// Two suppliers' invoices with the same number, our own sale (no UBL until sent), an offer (not an invoice).
				const first = add({
					OrderType: 'Invoice',
					OrderDirection: 'Cost',
					OrderNumber: 'INV-2024-0042',
					Supplier: { Name: 'Supplier A NV', VATNumber: 'BE0123456749' },
				});
				const second = add({
					OrderType: 'Invoice',
					OrderDirection: 'Cost',
					OrderNumber: 'INV-2024-0042',
					Supplier: { Name: 'Supplier B BV', VATNumber: 'NL123456789B01' },
				});
				const sale = add({ OrderType: 'Invoice', OrderDirection: 'Income', Customer: { Name: 'Klant NV', VATNumber: 'BE0456789133' } });
				add({ OrderType: 'Offer', OrderDirection: 'Income' });
				const polled = await poller.poll({ execute: true });
				const execution = polled.execution as HarnessResult;
				expect(execution.status).toBe('success');

				const expected = [
					{ order: first, name: archiveName(first, 'BE0123456749') },
					{ order: second, name: archiveName(second, 'NL123456789B01') },
					{ order: sale, name: archiveName(sale, 'BE0456789133') },
				];
				// Invoices with a UBL end in Archived, a sale not sent yet in "Archived, UBL to come".
				const archived = [...execution.output('Archived'), ...execution.output('Archived, UBL to come')];
				expect(archived).toEqual(
					expected.map(({ order, name }) => ({
						OrderID: order.OrderID,
						OrderNumber: order.OrderNumber,
						PdfFile: joinPath(folder, `${name}.pdf`),
						UblFile: order.OrderDirection === 'Cost' ? joinPath(folder, `${name}.xml`) : '',
					})),
				);
				expect(execution.executed('Not written')).toBe(false);
				expect(listFolder(folder)).toEqual(
					expected.flatMap(({ order, name }) => (order.OrderDirection === 'Cost' ? [`${name}.pdf`, `${name}.xml`] : [`${name}.pdf`])).sort(),
				);
				for (const { order, name } of expected) {
					const refs = emu.files.refs(order.OrderID as number) as { OrderPDF: { FileID: string }; Attachments: Array<{ FileID: string; FileName: string }> };
					expect(fileSha256(folder, `${name}.pdf`)).toBe(sha256(emu.files.get(refs.OrderPDF.FileID)!.content));
					const ubl = refs.Attachments.find((a) => a.FileName.endsWith('.xml'));
					if (ubl) expect(fileSha256(folder, `${name}.xml`)).toBe(sha256(emu.files.get(ubl.FileID)!.content));
				}
				expect((await poller.poll({ execute: true })).items).toBeNull();

				// Sent, the sale changes and gets its UBL: only its own files are written (again).
				emu.clock.advance(60_000);
				const sent = await h.runNode('accessPointOrder', {
					resource: 'order',
					operation: 'send',
					orderIds: String(sale.OrderID),
					options: { checkDelivery: false },
				});
				sent.assertSuccess();
				const again = (await poller.poll({ execute: true })).execution as HarnessResult;
				expect(again.output('Archived')).toEqual([expect.objectContaining({ OrderID: sale.OrderID, UblFile: joinPath(folder, `${expected[2].name}.xml`) })]);
				expect(listFolder(folder)).toHaveLength(6);
			} finally {
				removeFolder(folder);
			}
		});

		it('a file that cannot be written fails that invoice only, on the error output; the others are written', async () => {
			const folder = tempFolder('ap-archive-blocked-');
			allowFileAccess(folder);
			try {
				const poller = h.poller(archiveTemplate(template('archive-invoice-files.json'), folder));
				expect((await poller.poll({ execute: true })).items).toBeNull();
				const add = (order: IDataObject) => emu.store.addOrder(party, order) as IDataObject;
				const ok = add({ OrderType: 'Invoice', OrderDirection: 'Cost', OrderNumber: 'OK-1', Supplier: { Name: 'A', VATNumber: 'BE0123456749' } });
				const blocked = add({ OrderType: 'Invoice', OrderDirection: 'Cost', OrderNumber: 'BLOCKED-1', Supplier: { Name: 'B', VATNumber: 'BE0123456749' } });
				const after = add({ OrderType: 'Invoice', OrderDirection: 'Cost', OrderNumber: 'OK-2', Supplier: { Name: 'C', VATNumber: 'BE0123456749' } });
				// Where the blocked invoice's PDF should go, a link to a file outside the folder n8n may write: refused, for that invoice alone.
				const outside = linkOutside(folder, `${archiveName(blocked, 'BE0123456749')}.pdf`);
				const execution = (await poller.poll({ execute: true })).execution as HarnessResult;
				expect(execution.status).toBe('success');
				expect(execution.output('Archived').map((x) => x.OrderID)).toEqual([ok.OrderID, after.OrderID]);
				expect(execution.output('Not written')).toEqual([
					{ OrderID: blocked.OrderID, OrderNumber: 'BLOCKED-1', Problem: 'Access to the file is not allowed.' },
				]);
				removeFolder(outside);
			} finally {
				removeFolder(folder);
			}
		});
	});

	describe('delivery-status-alerts.json', () => {
		async function api(method: string, path: string, body?: unknown): Promise<IDataObject> {
			const res = await request(`${emu.url}${path}`, {
				method,
				headers: { apikey: emu.credentials.apiKey, partyID: party, 'content-type': 'application/json' },
				body,
			});
			expect(res.status).toBe(200);
			return res.body as IDataObject;
		}

		async function sentInvoice(): Promise<number> {
			const created = await api('POST', '/v1/orders', {
				OrderType: 'Invoice',
				OrderDirection: 'Income',
				OrderDate: '2024-03-01',
				Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
				OrderLines: [{ Quantity: 1, Description: 'x', UnitPriceExcl: 100, VATPercentage: 21 }],
			});
			const id = Number(created.OrderID ?? created);
			await api('POST', '/v1/orders/commands/send', { Transporttype: 'Peppol', OrderIDs: [id] });
			return id;
		}

		it('publishing registers its webhooks; Delivered, Refused/Error (the ALERT branch) and other steps each take their route; unpublishing removes them', async () => {
			const t = await webhookTrigger(h, template('delivery-status-alerts.json'));
			try {
				await t.activate();
				expect(emu.webhooks.list().map((w) => `${w.EntityType} ${w.EntityUpdateType} ${w.WebhookURL === t.url}`)).toEqual(['Message I true', 'Message U true']);
				const a = await sentInvoice();
				const b = await sentInvoice();
				emu.delivery.set(a, 'Delivered', { info: 'Delivered to the AP' });
				emu.delivery.set(b, 'Error', { info: 'Rejected by the receiving AP' });
				emu.delivery.set(a, 'Refused', { reason: 'REF', info: 'Unknown purchase order' });
				await emu.webhooks.settle();
				// Per invoice: the send's message inserted, then updated (Sent); a's delivery and refusal, b's failed delivery.
				const runs = await t.waitForExecutions(7);
				for (const run of runs) run.assertSuccess();
				const routed = (name: string) => runs.flatMap((r) => (r.executed(name) ? r.output(name) : []));
				// The service's Message events name the order by its id (OrderNumber only with Fetch Full Order).
				expect(routed('Delivered: record it')).toEqual([
					{ OrderID: a, OrderNumber: null, deliveryStatus: 'Delivered', info: 'Delivered to the AP', receivedAt: expect.any(String) },
				]);
				const alerts = routed('ALERT: refused or error');
				expect(alerts.map((x) => [x.OrderID, x.deliveryStatus, x.refusedReason])).toEqual(
					expect.arrayContaining([
						[b, 'Error', ''],
						[a, 'Refused', 'Unknown purchase order'],
					]),
				);
				expect(alerts).toHaveLength(2);
				expect(alerts.find((x) => x.deliveryStatus === 'Refused')!.alert).toBe(
					`Invoice ${a}: REFUSED by the buyer (reason Unknown purchase order): Unknown purchase order`,
				);
				expect(alerts.find((x) => x.deliveryStatus === 'Error')!.alert).toBe(`Invoice ${b}: delivery ERROR: Rejected by the receiving AP`);
				expect(
					routed('Sent or accepted: no action')
						.map((x) => x.deliveryStatus ?? null)
						.sort(),
				).toEqual(['Sent', 'Sent', null, null]);
				await t.deactivate();
				expect(emu.webhooks.list()).toEqual([]);
			} finally {
				await t.close();
			}
		});
	});

	describe('account-audit.json', () => {
		async function register(companyName: string, email: string, vat: string): Promise<number> {
			const r = await h.runNode('accessPointRegistration', {
				operation: 'create',
				companyName,
				taxIdentifier: vat,
				email,
				contactFirstName: 'A',
				contactLastName: 'B',
				language: 'EN',
				addresses: { invoiceAddress: { street: 'Wetstraat', zipcode: '1000', city: 'Brussel', countryCode: 'BE' } },
			});
			return r.assertSuccess().output(r.nodeName)[0].RegistrationID as number;
		}
		const integrate = async (id: number, network: string) =>
			(
				await h.runNode('accessPointIntegration', { operation: 'create', registrationId: { __rl: true, mode: 'id', value: String(id) }, network })
			).assertSuccess();

		/** What the audit must say, from the emulator's own records. */
		function truth() {
			const mine = emu.store.registrationsOf(emu.credentials.apiKey) as Array<{ RegistrationID: number; details: IDataObject; Integrations: IDataObject[] }>;
			const rows = mine.flatMap((r) => r.Integrations.map((i) => ({ r, i })));
			return {
				pending: rows
					.filter(({ i }) => i.IntegrationStatus === 'Pending')
					.map(({ r, i }) => ({
						RegistrationID: r.RegistrationID,
						CompanyName: r.details.CompanyName,
						Network: i.Integration,
						Status: 'Pending',
						WhatIsNeeded: i.IntegrationStatusDescription,
						DocumentToSign: i.IntegrationDocumentToSign,
					})),
				fine: rows
					.filter(({ i }) => i.IntegrationStatus !== 'Pending')
					.map(({ r, i }) => ({ RegistrationID: r.RegistrationID, CompanyName: r.details.CompanyName, Network: i.Integration, Status: i.IntegrationStatus })),
				none: mine.filter((r) => r.Integrations.length === 0).map((r) => r.RegistrationID),
			};
		}

		it('lists what must be signed, what is in order and which companies have no network, and follows a signature', async () => {
			const italian = await register('Italia Audit SRL', 'fatture@italia-audit.example', 'BE0555055576');
			await integrate(italian, 'Peppol');
			await integrate(italian, 'SDI');
			const bare = await register('Bare Audit BV', 'info@bare-audit.example', 'BE0666066633');

			const result = (await h.run(template('account-audit.json'))).assertSuccess();
			const expected = truth();
			const mustSign = result.output('Must be signed');
			expect(mustSign).toEqual(expected.pending);
			expect(mustSign).toContainEqual({
				RegistrationID: italian,
				CompanyName: 'Italia Audit SRL',
				Network: 'SDI',
				Status: 'Pending',
				WhatIsNeeded: 'Awaiting signature of the legal archiving document',
				DocumentToSign: expect.stringMatching(/\/sign\/[0-9a-f]+$/),
			});
			expect(result.output('Active or ready')).toEqual(expected.fine);
			expect(result.output('Active or ready')).toContainEqual({ RegistrationID: 300001, CompanyName: 'Demo Entity BV', Network: 'Peppol', Status: 'Active' });
			expect(result.output('No network yet').map((r) => r.RegistrationID)).toEqual(expected.none);
			expect(result.output('No network yet')).toContainEqual({
				RegistrationID: bare,
				CompanyName: 'Bare Audit BV',
				VATNumber: 'BE0666066633',
				Finding: 'No e-invoicing network is active for this company.',
				NextStep: expect.stringContaining('Peppol'),
			});

			// The company signs: the next audit no longer lists it.
			const link = String(mustSign.find((r) => r.RegistrationID === italian)?.DocumentToSign);
			expect((await request(`${link}/complete`)).status).toBe(200);
			const after = (await h.run(template('account-audit.json'))).assertSuccess();
			expect(after.output('Must be signed').filter((r) => r.RegistrationID === italian)).toEqual([]);
			expect(after.output('Active or ready')).toContainEqual({ RegistrationID: italian, CompanyName: 'Italia Audit SRL', Network: 'SDI', Status: 'Active' });
		});
	});
});
