/**
 * A user who does not know the package's name searches n8n's node panel for what they
 * want to do. The panel matches only a node's display name and its codex aliases
 * (nodes/<Node>/<Node>.node.json), with the editor's own fuzzy search; see
 * searchNodePanel in ./packageNodes.js. Our nodes compete with n8n's built-in ones.
 */
import { builtInNodes, loadPackageNodes, PACKAGE_NAME, printFigures, searchNodePanel } from './packageNodes';

const ours = loadPackageNodes().map((n) => ({
	key: `${PACKAGE_NAME}.${n.description.name}`,
	short: n.description.name,
	properties: { displayName: n.description.displayName, codex: n.codex },
}));
const everyNode = [...builtInNodes(), ...ours];

const ALL = ours.map((n) => n.short);
const INVOICES = ['accessPointOrder', 'accessPointOrderTrigger'];

/** [what the user types, the nodes of ours it must find] */
const TERMS: Array<[string, string[]]> = [
	['invoice', ALL],
	['e-invoice', ALL],
	['einvoice', ALL],
	['e-invoicing', ALL],
	['peppol', ALL],
	['billit', ALL],
	// The package's own name written as two words, as people say it (issue 28).
	['access point', ALL],
	['Access Point', ALL],
	['access point order', ['accessPointOrder', 'accessPointOrderTrigger']],
	['Billit', ALL],
	['UBL', INVOICES],
	['credit note', INVOICES],
	['KYC', ['accessPointIdentification']],
	['itsme', ['accessPointIdentification']],
	['VAT', ['accessPointPeppolLookup', 'accessPointRegistration']],
	['incoming invoice trigger', ['accessPointOrderTrigger']],
];

describe('the node panel search finds our nodes', () => {
	it('every node has a codex file with aliases', () => {
		for (const n of ours) expect(n.properties.codex?.alias?.length).toBeGreaterThan(0);
	});

	it.each(TERMS)('"%s" finds %j', (term, expected) => {
		const results = searchNodePanel(term, everyNode);
		const found = results.filter((r) => r.key.startsWith(`${PACKAGE_NAME}.`)).map((r) => r.key.slice(PACKAGE_NAME.length + 1));
		expect(found).toEqual(expect.arrayContaining(expected));
		const firstOurs = results.findIndex((r) => r.key.startsWith(`${PACKAGE_NAME}.`));
		printFigures(`"${term}": ${found.length} of ours among ${results.length} results`, [
			`first of ours at rank ${firstOurs + 1}; built-in nodes found: ${
				results
					.filter((r) => !r.key.startsWith(`${PACKAGE_NAME}.`))
					.slice(0, 4)
					.map((r) => r.key)
					.join(', ') || 'none'
			}`,
		]);
	});

	it("the search is the editor's: a term no alias or name holds finds none of ours", () => {
		expect(searchNodePanel('spreadsheet', ours)).toEqual([]);
		expect(
			searchNodePanel('AccessPoint Peppol', ours)
				.map((r) => r.key)
				.sort(),
		).toEqual([`${PACKAGE_NAME}.accessPointInbox`, `${PACKAGE_NAME}.accessPointInboxTrigger`, `${PACKAGE_NAME}.accessPointPeppolLookup`]);
	});
});
