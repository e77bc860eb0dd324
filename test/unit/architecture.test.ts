/**
 * ARCHITECTURE.md stays true: every repository path it names exists, every "`name` (`file`)" or
 * "`name` in `file`" pair names something that file holds, and the worked example ("Add an
 * operation", Peppol Inbox › Confirm) can be followed literally: its list entry, emulator route
 * and test are where it says.
 */
import { exists, readText } from './helpers/release';

const read = (path: string) => readText(path) ?? '';
const doc = read('ARCHITECTURE.md');
const ROOTS = /^(nodes|test|emulator|docs|credentials|e2e|examples|scripts|bench)\//;

/** `a/{b,c}/d` -> a/b/d, a/c/d. */
function expand(path: string): string[] {
	const m = /\{([^{}]+)\}/.exec(path);
	if (!m) return [path];
	return m[1].split(',').flatMap((part) => expand(path.slice(0, m.index) + part + path.slice(m.index + m[0].length)));
}

function pathsNamed(text: string): string[] {
	const tokens = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
	return tokens.filter((t) => ROOTS.test(t) && !t.includes('<')).flatMap(expand);
}

function pairsNamed(text: string): Array<[string, string]> {
	return [...text.matchAll(/`([A-Za-z_][\w.]*)`\s+(?:\(|in\s+)`([^`]+\.(?:ts|js))`/g)].map((m) => [m[1], m[2]]);
}

describe('ARCHITECTURE.md', () => {
	it('names paths that exist', () => {
		const paths = pathsNamed(doc);
		expect(paths.length).toBeGreaterThan(40);
		expect(paths.filter((p) => !exists(p))).toEqual([]);
	});

	it('names functions, lists and handlers in the files it says', () => {
		const pairs = pairsNamed(doc);
		expect(pairs.length).toBeGreaterThan(15);
		const wrong = pairs.filter(([name, file]) => {
			if (!exists(file)) return true;
			const source = read(file);
			return !name.split('.').every((part) => new RegExp(`\\b${part}\\b`).test(source));
		});
		expect(wrong).toEqual([]);
	});

	it('its worked example (Peppol Inbox › Confirm) is followed literally by the code', () => {
		const section = doc.slice(doc.indexOf('## Add an operation'), doc.indexOf('## Add a node'));
		expect(section).toContain('Peppol Inbox › Confirm');
		const operation = read('nodes/Inbox/actions/confirm.operation.ts');
		expect(operation).toMatch(/export const description = updateDisplayOptions\(\{ show: \{ operation: \['confirm'\] \} \}, \[inboxItemIdField\]\)/);
		expect(operation).toMatch(/export async function execute\(this: IExecuteFunctions, clients: ClientProvider\)[\s\S]*settle\(this, clients, 'confirm'\)/);
		const settle = read('nodes/Inbox/actions/fields.ts');
		for (const used of ['runItems', 'requireValid', 'checkNumericId', 'readActForParty', 'settleItem']) expect(settle).toContain(used);
		expect(read('nodes/shared/node/inbox.ts')).toMatch(
			/client\.request\(\{\s*method: 'POST',\s*path: `\$\{INBOX_PATH\}\/\$\{encodeURIComponent\(id\)\}\/\$\{action\}`/,
		);

		const index = read('nodes/Inbox/actions/index.ts');
		expect(index).toContain("import * as confirm from './confirm.operation'");
		expect(index).toMatch(/name: 'Confirm', value: 'confirm',[^}]*action: 'Confirm an inbox item', module: confirm/);

		const route = "['POST', /^\\/v1\\/peppol\\/inbox\\/(?<id>[^/]+)\\/confirm\\/?$/i, confirm, true]";
		expect(section.replace(/\s*\n\s*/g, ' ')).toContain(route);
		expect(read('emulator/routes/inbox.js')).toContain(route);
		expect(read('emulator/server.js')).toContain('...inbox.ROUTES');

		expect(read('test/unit/inbox-requests.test.ts')).toContain('Confirm: POST …/{InboxItemID}/confirm without a body');
		expect(read('test/workflows/inbox.test.ts')).toContain("operation: 'confirm'");
		expect(read('test/emulator/inbox.test.ts')).toContain('/confirm');
		expect(read('test/reliability/bad-input-inbox.test.ts')).toContain("operation: 'confirm'");
	});
});
