import { createEmulator } from '../../emulator';

export type Emu = Awaited<ReturnType<typeof createEmulator>>;
export type Opts = Parameters<typeof createEmulator>[0];

/** A request as the emulator logs it (`emu.requests`): apikey masked, body parsed when JSON. */
export interface Logged {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
	status: number | null;
}

export interface Res {
	status: number;
	headers: Headers;
	text: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	json: any;
}

export interface CallOptions {
	body?: unknown;
	rawBody?: string;
	headers?: Record<string, string>;
	/** send the default apikey/partyID headers (default true) */
	auth?: boolean;
	partyId?: string;
	apiKey?: string;
}

/** Start an emulator for a test file (small seed unless told otherwise). */
export async function start(opts: Opts = {}): Promise<Emu> {
	return createEmulator({ orders: 300, ...opts });
}

/** One HTTP call against the emulator; parses JSON bodies when possible. */
export async function call(emu: Emu, method: string, path: string, o: CallOptions = {}): Promise<Res> {
	const headers: Record<string, string> = {};
	if (o.auth !== false) {
		headers.apikey = o.apiKey ?? emu.credentials.apiKey;
		headers.partyID = o.partyId ?? emu.credentials.partyId;
	}
	let body: string | undefined = o.rawBody;
	if (o.body !== undefined) {
		body = JSON.stringify(o.body);
		headers['content-type'] = 'application/json';
	}
	Object.assign(headers, o.headers);
	const url = path.startsWith('http') ? path : emu.url + path;
	const res = await fetch(url, { method, headers, body, redirect: 'manual' });
	const text = await res.text();
	let json: unknown;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

export const get = (emu: Emu, path: string, o?: CallOptions) => call(emu, 'GET', path, o);
export const post = (emu: Emu, path: string, body?: unknown, o: CallOptions = {}) => call(emu, 'POST', path, { ...o, body });
export const del = (emu: Emu, path: string, o?: CallOptions) => call(emu, 'DELETE', path, o);

/** Build a query string with each value percent-encoded (as a careful client does). */
export function qs(params: Record<string, string | number>): string {
	return Object.entries(params)
		.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
		.join('&');
}

/** A valid registration body; email made unique by a suffix. */
export function registrationBody(suffix: string | number, extra: Record<string, unknown> = {}) {
	return {
		TaxIdentifier: 'BE0123456749',
		CompanyName: `Entity ${suffix} BV`,
		CommercialName: `Entity ${suffix}`,
		TaxDeductable: true,
		TaxLiable: true,
		IBAN: 'BE68539007547034',
		BIC: 'GKCCBEBB',
		Mobile: '+32470000000',
		Phone: '+3220000000',
		Email: `entity-${suffix}@example.com`,
		ContactFirstName: 'Ann',
		ContactLastName: 'Peeters',
		Language: 'NL',
		Identifiers: [{ IdentifierType: 'KBO', Identifier: '0123456749' }],
		AccountSettings: { ProcessUBLPrePaidAmount: false }, // the published EinvoiceAccountSettings
		Addresses: [{ AddressType: 'InvoiceAddress', Street: 'Kerkstraat', StreetNumber: '1', Zipcode: '9000', City: 'Gent', CountryCode: 'BE' }],
		...extra,
	};
}

/** Create a registration and return its id. */
export async function register(emu: Emu, suffix: string | number, extra: Record<string, unknown> = {}): Promise<number> {
	const r = await post(emu, '/v1/einvoices/registrations', registrationBody(suffix, extra));
	if (r.status !== 200) throw new Error(`register failed: ${r.status} ${r.text}`);
	return r.json.RegistrationID as number;
}

/** A valid order create body. */
export function orderBody(extra: Record<string, unknown> = {}) {
	return {
		OrderType: 'Invoice',
		OrderDirection: 'Income',
		OrderDate: '2024-03-01',
		ExpiryDate: '2024-03-31',
		Customer: { Name: 'Peppol Demo Belgium NV', VATNumber: 'BE0123456749', PartyType: 'Customer' },
		OrderLines: [
			{ Quantity: 2, Description: 'Widget', UnitPriceExcl: 10.5, VATPercentage: 21 },
			{ Quantity: 1, Description: 'Service', UnitPriceExcl: 100, VATPercentage: 6 },
		],
		...extra,
	};
}
