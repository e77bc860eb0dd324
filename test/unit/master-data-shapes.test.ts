/**
 * AccessPoint Order › Mark as (Not) Exported, Party › Create / Update / Get / Find by VAT Number and
 * Product › Create or Update / Get: the exact requests (nock), the answer forms the emulator does
 * not give, and bad input refused before any request.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../harness';
import type { Harness } from '../harness';

const NODE = 'accessPointOrder';
const BASE = 'https://api.master-data.test';
const JSON_TYPE = { 'Content-Type': 'application/json' };
const VAT = 'BE0403170701';
const party = (extra: IDataObject = {}) => ({ PartyID: 77, Name: 'Paper Co NV', VATNumber: VAT, PartyType: 'Customer', ...extra });

describe('master data and export flag request shapes (nock)', () => {
	let h: Harness;

	async function run(parameters: IDataObject, input?: IDataObject[]) {
		const result = await h.runNode(NODE, parameters, input);
		const name = result.nodeName as string;
		return { result, name, items: result.status === 'success' ? result.output(name) : [] };
	}

	beforeAll(async () => {
		h = await createHarness({ emulator: false, credentials: { apiKey: 'k-master', partyId: '100001', environment: 'custom', baseUrl: BASE } });
		nock.disableNetConnect();
	});
	afterEach(() => {
		const pending = nock.pendingMocks();
		nock.cleanAll();
		expect(pending).toEqual([]);
	});
	afterAll(async () => {
		nock.enableNetConnect();
		await h?.close();
	});

	describe('Order › Mark as Exported / Not Exported', () => {
		const received = (id: number, direction = 'Cost') => nock(BASE).get(`/v1/orders/${id}`).reply(200, { OrderID: id, OrderDirection: direction }, JSON_TYPE);

		it('PATCHes {IsSent: true} per item with the credential headers; an empty answer is a success', async () => {
			received(12);
			received(13);
			nock(BASE)
				.patch('/v1/orders/12', { IsSent: true })
				.matchHeader('apikey', 'k-master')
				.matchHeader('partyID', '100001')
				.matchHeader('content-type', /application\/json/)
				.reply(200, '')
				.patch('/v1/orders/13', { IsSent: true })
				.reply(200, { OrderID: 13, IsSent: true, OrderNumber: 'SUP-1' }, JSON_TYPE);
			const { items, result } = await run({ resource: 'order', operation: 'markExported', orderId: '={{ $json.id }}' }, [{ id: 12 }, { id: '13' }]);
			expect(result.status).toBe('success');
			expect(items).toEqual([
				{ OrderID: 12, IsSent: true },
				{ OrderID: 13, IsSent: true, OrderNumber: 'SUP-1' },
			]);
		});

		it('Mark as Not Exported PATCHes {IsSent: false}; a refusal names the order and keeps the API code', async () => {
			nock(BASE).patch('/v1/orders/12', { IsSent: false }).reply(200, '');
			expect((await run({ resource: 'order', operation: 'markNotExported', orderId: 12 })).items).toEqual([{ OrderID: 12, IsSent: false }]);
			received(14);
			nock(BASE)
				.patch('/v1/orders/14')
				.reply(400, { errors: [{ Code: 'GenericError', Description: 'Order is locked' }] });
			const { result, name } = await run({ resource: 'order', operation: 'markExported', orderId: 14 });
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toBe('Order 14 was not marked as exported: Order is locked (HTTP 400, GenericError)');
		});

		it('Mark as Exported reads the order first and refuses one not received (a sale), marking nothing', async () => {
			received(15, 'Income');
			const { result, name } = await run({ resource: 'order', operation: 'markExported', orderId: 15 });
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe('Item 0: "Order" 15 is not a document you received (OrderDirection Income, not Cost): it was not marked');
		});

		it('a bad OrderID on item 2 is refused before any request', async () => {
			const { result, name } = await run({ resource: 'order', operation: 'markExported', orderId: '={{ $json.id }}' }, [{ id: 12 }, { id: 'abc' }]);
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe('Item 1: "Order" abc is not an OrderID');
		});
	});

	describe('Party', () => {
		const lookup = (items: IDataObject[]) =>
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: `VATNumber eq '${VAT}' and PartyType eq 'Customer'` })
				.reply(200, { Items: items }, JSON_TYPE);
		const create = (extra: IDataObject = {}) => ({ resource: 'party', operation: 'create', name: 'Paper Co NV', vatNumber: 'be 0403.170.701', ...extra });

		it('Create looks the VAT number up, then POSTs the checked body and outputs the party read back', async () => {
			// A server ignoring the filter answers others: the Customer list is then read and compared (none matches).
			lookup([party({ PartyID: 1, VATNumber: 'BE0999999999' })]);
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: "PartyType eq 'Customer'" })
				.reply(200, { Items: [party({ PartyID: 1, VATNumber: 'BE0999999999' })] }, JSON_TYPE)
				.post('/v1/parties', {
					Name: 'Paper Co NV',
					VATNumber: VAT,
					PartyType: 'Customer',
					Email: 'ap@paper.example',
					City: 'Gent',
					VATLiable: true,
					CustomFields: [{ Key: 'crm', Value: '42' }],
				})
				.reply(200, '77', JSON_TYPE)
				.get('/v1/parties/77')
				.reply(200, party({ Email: 'ap@paper.example' }), JSON_TYPE);
			const { items } = await run(
				create({
					partyFields: {
						email: 'ap@paper.example',
						city: 'Gent',
						vatLiable: true,
						otherFields: '{"CustomFields": [{"Key": "crm", "Value": "42"}], "City": "ignored"}',
					},
				}),
			);
			expect(items).toEqual([{ ...party({ Email: 'ap@paper.example' }), AlreadyExisted: false }]);
		});

		it('Create finds the party and outputs it unchanged (nothing created), or updates it with the fields given', async () => {
			lookup([party()]);
			expect((await run(create())).items).toEqual([{ ...party(), AlreadyExisted: true }]);

			lookup([party()]);
			nock(BASE)
				.patch('/v1/parties/77', { Name: 'Paper Co NV', VATNumber: VAT, Phone: '+3292000000' })
				.reply(200, '')
				.get('/v1/parties/77')
				.reply(200, party({ Phone: '+3292000000' }), JSON_TYPE);
			expect((await run(create({ ifFound: 'update', partyFields: { phone: '+32 9 200 00 00' } }))).items).toEqual([
				{ ...party({ Phone: '+3292000000' }), AlreadyExisted: true },
			]);
		});

		it('Create matches by e-mail (case-insensitively) or not at all', async () => {
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: "Email eq 'Jan@Example.com' and PartyType eq 'Supplier'" })
				.reply(200, { Items: [{ PartyID: 5, Email: 'jan@example.com', PartyType: 'Supplier' }] }, JSON_TYPE);
			const found = await run({
				resource: 'party',
				operation: 'create',
				name: 'Jan',
				partyType: 'Supplier',
				matchBy: 'email',
				partyFields: { email: 'Jan@Example.com' },
			});
			expect(found.items).toEqual([{ PartyID: 5, Email: 'jan@example.com', PartyType: 'Supplier', AlreadyExisted: true }]);

			// Dots matter in an e-mail address (not in a VAT number): j.an@ is another person.
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: "Email eq 'jan@example.com' and PartyType eq 'Customer'" })
				.reply(200, { Items: [{ PartyID: 7, Email: 'j.an@example.com', PartyType: 'Customer' }] }, JSON_TYPE)
				.get('/v1/parties')
				.query({ $filter: "PartyType eq 'Customer'" })
				.reply(200, { Items: [{ PartyID: 7, Email: 'j.an@example.com', PartyType: 'Customer' }] }, JSON_TYPE)
				.post('/v1/parties', { Name: 'Jan', PartyType: 'Customer', Email: 'jan@example.com' })
				.reply(200, '8', JSON_TYPE)
				.get('/v1/parties/8')
				.reply(200, { PartyID: 8 }, JSON_TYPE);
			expect((await run({ resource: 'party', operation: 'create', name: 'Jan', matchBy: 'email', partyFields: { email: 'jan@example.com' } })).items).toEqual([
				{ PartyID: 8, AlreadyExisted: false },
			]);

			nock(BASE)
				.post('/v1/parties', { Name: 'Jan', PartyType: 'Customer' })
				.reply(200, { PartyID: 6 }, JSON_TYPE)
				.get('/v1/parties/6')
				.reply(200, { PartyID: 6 }, JSON_TYPE);
			expect((await run({ resource: 'party', operation: 'create', name: 'Jan', matchBy: 'none' })).items).toEqual([{ PartyID: 6, AlreadyExisted: false }]);
		});

		const refused = { Code: 'GenericError', Description: "Could not find a property named 'VATNumber' on type 'Party'." };
		const customers = (skip: number, items: IDataObject[], more: boolean) =>
			nock(BASE)
				.get('/v1/parties')
				.query(skip ? { $filter: "PartyType eq 'Customer'", $skip: String(skip) } : { $filter: "PartyType eq 'Customer'" })
				.reply(200, { Items: items, ...(more ? { NextPageLink: `/v1/parties?$skip=${skip + items.length}` } : {}) }, JSON_TYPE);
		const others = (from: number, count: number) => Array.from({ length: count }, (_, i) => party({ PartyID: from + i, VATNumber: `BE0${from + i}` }));

		it('Create, when the service refuses the VATNumber filter (400): reads the Customer list page after page and finds the party (no POST)', async () => {
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: `VATNumber eq '${VAT}' and PartyType eq 'Customer'` })
				.reply(400, { errors: [refused] }, JSON_TYPE);
			customers(0, others(1000, 120), true);
			customers(120, [...others(2000, 3), party()], false);
			expect((await run(create())).items).toEqual([{ ...party(), AlreadyExisted: true }]);
		});

		it('Create, when the list is longer than 10 pages without the party: stops with what to do, creates nothing', async () => {
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: `VATNumber eq '${VAT}' and PartyType eq 'Customer'` })
				.reply(400, { errors: [refused] }, JSON_TYPE);
			for (let page = 0; page < 10; page++) customers(page * 120, others(1000 + page * 120, 120), true);
			const { result, name } = await run(create());
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toBe('Find party: the service cannot filter on this field and its first 1200 records hold none, so nothing was created');
			expect(String(error?.description)).toMatch(/Match Existing By to Nothing/);
		});

		it('Create fails without claiming success when the answer carries no PartyID', async () => {
			lookup([]);
			nock(BASE).post('/v1/parties').reply(200, 'OK', { 'Content-Type': 'text/plain' });
			const { result, name } = await run(create());
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toBe('Create party answered without a PartyID: the party may or may not exist');
			expect(String(error?.description)).toMatch(/found by its VAT number/);
		});

		/** A parameter whose value is `bad` on item 2 only. */
		const onItem2 = (bad: string, good: string) => `={{ $itemIndex === 1 ? ${JSON.stringify(bad)} : ${JSON.stringify(good)} }}`;
		it.each([
			['a bad VAT number', { vatNumber: onItem2('BE0403170702', VAT) }, 'Item 1: "VAT Number" BE0403170702 is not a valid Belgian VAT number'],
			['an empty VAT number', { vatNumber: onItem2('', VAT) }, 'Item 1: "VAT Number" is empty, and Match Existing By is VAT Number'],
			['an empty name', { name: onItem2('', 'Paper Co NV') }, 'Item 1: "Name" is empty'],
			[
				'a bad e-mail',
				{ partyFields: { email: onItem2('not-an-address', 'a@b.be') } },
				'Item 1: "Email" not-an-address is not a valid e-mail address (it needs exactly one @)',
			],
			['Other Fields that are not JSON', { partyFields: { otherFields: onItem2('{nope', '{}') } }, 'Item 1: "Other Fields (JSON)" is not valid JSON'],
			['Other Fields that are a list', { partyFields: { otherFields: onItem2('[1]', '{}') } }, 'Item 1: "Other Fields (JSON)" [1] is not a JSON object'],
			['an unknown party type', { partyType: onItem2('Friend', 'Customer') }, 'Item 1: "Party Type" Friend is not one of Customer, Supplier'],
		])('Create refuses %s on item 2 before any request', async (_what, bad, message) => {
			const { result, name } = await run(create(bad), [{}, {}]);
			const error = result.nodeError(name);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message.startsWith(message)).toBe(true);
		});

		it('Update PATCHes only the fields given and reads the party back; nothing to change is refused', async () => {
			nock(BASE)
				.patch('/v1/parties/77', { City: 'Brussel', CountryCode: 'BE' })
				.reply(200, '')
				.get('/v1/parties/77')
				.reply(200, party({ City: 'Brussel' }), JSON_TYPE);
			expect((await run({ resource: 'party', operation: 'update', partyId: '77', updateFields: { city: 'Brussel', countryCode: 'be' } })).items).toEqual([
				party({ City: 'Brussel' }),
			]);
			const { result, name } = await run({ resource: 'party', operation: 'update', partyId: '77', updateFields: {} });
			expect(result.nodeError(name)?.message).toBe('Item 0: "Update Fields" has nothing to change');
			const bad = await run({ resource: 'party', operation: 'update', partyId: 'x7', updateFields: { city: 'Gent' } });
			expect(bad.result.nodeError(bad.name)?.message).toBe('Item 0: "Party ID" x7 is not a valid PartyID (a positive whole number)');
		});

		it('Get reads one party; Find by VAT Number outputs only the exact matches', async () => {
			nock(BASE).get('/v1/parties/77').reply(200, party(), JSON_TYPE);
			expect((await run({ resource: 'party', operation: 'get', partyId: 77 })).items).toEqual([party()]);
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: `VATNumber eq '${VAT}'` })
				.reply(
					200,
					{ Items: [party(), party({ PartyID: 78, PartyType: 'Supplier', VATNumber: 'BE 0403.170.701' }), party({ PartyID: 1, VATNumber: 'NL1' })] },
					JSON_TYPE,
				);
			// NL1 shows the filter was ignored: the list is read (no Party Type: unfiltered) and compared.
			nock(BASE)
				.get('/v1/parties')
				.reply(
					200,
					{ Items: [party(), party({ PartyID: 78, PartyType: 'Supplier', VATNumber: 'BE 0403.170.701' }), party({ PartyID: 1, VATNumber: 'NL1' })] },
					JSON_TYPE,
				);
			expect((await run({ resource: 'party', operation: 'findByVat', vatNumber: VAT })).items.map((p) => p.PartyID)).toEqual([77, 78]);
			nock(BASE)
				.get('/v1/parties')
				.query({ $filter: `VATNumber eq '${VAT}' and PartyType eq 'Supplier'` })
				.reply(200, { Items: [] }, JSON_TYPE);
			expect((await run({ resource: 'party', operation: 'findByVat', vatNumber: VAT, partyType: 'Supplier' })).items).toEqual([]);
		});
	});

	describe('Product', () => {
		const product = (extra: IDataObject = {}) => ({ ProductID: 9, Reference: 'PAPER-A4', AmountExcl: 4.5, VAT: 21, ...extra });
		const byReference = (items: IDataObject[]) =>
			nock(BASE).get('/v1/products').query({ $filter: "Reference eq 'PAPER-A4'" }).reply(200, { Items: items }, JSON_TYPE);
		const params = (extra: IDataObject = {}) => ({
			resource: 'product',
			operation: 'createOrUpdate',
			reference: 'PAPER-A4',
			productFields: { amountExcl: 4.5, vat: 21 },
			...extra,
		});

		it('Create or Update looks the Reference up, POSTs one product and reads it back', async () => {
			byReference([]);
			nock(BASE)
				.post('/v1/products', { AmountExcl: 4.5, VAT: 21, Reference: 'PAPER-A4' })
				.reply(200, '9', JSON_TYPE)
				.get('/v1/products/9')
				.reply(200, product(), JSON_TYPE);
			expect((await run(params())).items).toEqual([{ ...product(), AlreadyExisted: false }]);
		});

		it('updates the product found by Reference (with its ProductID), in the Items form when chosen', async () => {
			byReference([product()]);
			nock(BASE)
				.post('/v1/products', { Items: [{ ProductID: 9, AmountExcl: 4.75, Reference: 'PAPER-A4' }] })
				.reply(200, [9], JSON_TYPE)
				.get('/v1/products/9')
				.reply(200, product({ AmountExcl: 4.75 }), JSON_TYPE);
			expect((await run(params({ bodyForm: 'items', productFields: { amountExcl: 4.75 } }))).items).toEqual([
				{ ...product({ AmountExcl: 4.75 }), AlreadyExisted: true },
			]);
		});

		it('with a Product ID it updates that product without a lookup; Get reads one', async () => {
			nock(BASE)
				.post('/v1/products', { ProductID: 9, Reference: 'PAPER-A4', Description: 'Paper' })
				.reply(200, '')
				.get('/v1/products/9')
				.reply(200, product(), JSON_TYPE);
			expect((await run(params({ productId: '9', productFields: { description: 'Paper' } }))).items).toEqual([{ ...product(), AlreadyExisted: true }]);
			nock(BASE).get('/v1/products/9').reply(200, product(), JSON_TYPE);
			expect((await run({ resource: 'product', operation: 'get', productId: '9' })).items).toEqual([product()]);
		});

		it('refuses a bad VAT percentage or an empty Reference before any request; fails when no ProductID comes back', async () => {
			const bad = await run(params({ productFields: { vat: 121 } }));
			expect(bad.result.nodeError(bad.name)?.message).toBe('Item 0: "VAT Percentage" 121 is not a number from 0 to 100');
			const empty = await run(params({ reference: '={{ "" }}' }));
			expect(empty.result.nodeError(empty.name)?.message).toBe('Item 0: "Reference" is empty');
			byReference([]);
			nock(BASE).post('/v1/products').reply(200, { ok: true }, JSON_TYPE);
			const none = await run(params());
			expect(none.result.nodeError(none.name)?.message).toBe('Create product answered without a ProductID: the product may or may not exist');
		});
	});
});
