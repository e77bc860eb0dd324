/**
 * The words people use for the receiving side find the inbox nodes in n8n's node panel (the
 * editor's own fuzzy search over display names and codex aliases, see ./packageNodes.js).
 */
import { builtInNodes, loadPackageNodes, PACKAGE_NAME, searchNodePanel } from './packageNodes';

const ours = loadPackageNodes().map((n) => ({
	key: `${PACKAGE_NAME}.${n.description.name}`,
	short: n.description.name,
	properties: { displayName: n.description.displayName, codex: n.codex },
}));
const everyNode = [...builtInNodes(), ...ours];

describe('the inbox nodes are found under the words people use', () => {
	it.each(['inbox', 'Peppol inbox', 'received', 'incoming', 'supplier invoice', 'IMR', 'invoice response', 'refused invoice'])('"%s"', (term) => {
		const found = searchNodePanel(term, everyNode)
			.filter((r) => r.key.startsWith(`${PACKAGE_NAME}.`))
			.map((r) => r.key.slice(PACKAGE_NAME.length + 1));
		expect(found).toEqual(expect.arrayContaining(term === 'refused invoice' ? ['accessPointInboxTrigger'] : ['accessPointInbox', 'accessPointInboxTrigger']));
	});
});
