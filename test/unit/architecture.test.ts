/**
 * ARCHITECTURE.md stays true: every repository path it names exists, every "`name` (`file`)" or
 * "`name` in `file`" pair names something that file holds, and the worked example ("Add an
 * operation", Peppol Inbox › Confirm) is the code: its module and list entry loaded, the imports
 * its steps name, the emulator route it quotes, the tests it names.
 */
import * as confirm from '../../nodes/Inbox/actions/confirm.operation';
import { inbox } from '../../nodes/Inbox/actions';
import { exists, readText } from './helpers/release';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const inboxRoutes = require('../../emulator/routes/inbox.js') as { ROUTES: unknown[] };

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

/** What a file imports, as [name, from] pairs (`* as x` for a namespace import). */
function importsOf(file: string): Array<[string, string]> {
	return [...read(file).matchAll(/^import\s+(?:type\s+)?(\*\s+as\s+\w+|\{[^}]*\})\s+from\s+'([^']+)'/gm)].flatMap(([, names, from]) =>
		names.startsWith('*')
			? [[names.replace(/\s+/g, ' '), from] as [string, string]]
			: names
					.slice(1, -1)
					.split(',')
					.map((name) => name.replace(/^\s*type\s+/, '').trim())
					.filter(Boolean)
					.map((name) => [name, from] as [string, string]),
	);
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

	it('its worked example (Peppol Inbox › Confirm) is followed literally by the code: the modules, their imports, the route', () => {
		const section = doc.slice(doc.indexOf('## Add an operation'), doc.indexOf('## Add a node'));
		expect(section).toContain('Peppol Inbox › Confirm');
		// 1. One file: its description shows for the confirm operation only and holds the shared Inbox Item ID field.
		expect(confirm.description.map((field) => [field.name, field.displayOptions?.show?.operation])).toEqual([['inboxItemId', ['confirm']]]);
		expect(typeof confirm.execute).toBe('function');
		// Its execute is settle, built on the item loop, the input check and the inbox request the steps name (imports, not spelling).
		expect(importsOf('nodes/Inbox/actions/confirm.operation.ts')).toEqual(
			expect.arrayContaining([
				['settle', './settle'],
				['inboxItemIdField', './settle'],
			]),
		);
		expect(importsOf('nodes/Inbox/actions/settle.ts')).toEqual(
			expect.arrayContaining([
				['runItems', '../../shared/node/items'],
				['requireValid', '../../shared/node/input'],
				['checkNumericId', '../../shared/domain/validation'],
				['settleItem', '../../shared/node/inbox'],
			]),
		);
		// 2. One entry in the node's list, holding the module itself.
		expect(inbox.operations.find((entry) => entry.value === 'confirm')).toMatchObject({ name: 'Confirm', action: 'Confirm an inbox item', module: confirm });
		expect(importsOf('nodes/Inbox/actions/index.ts')).toContainEqual(['* as confirm', './confirm.operation']);
		// 3. The emulator route the section quotes is the one emulator/routes/inbox.js serves (and server.js spreads in).
		const route = (inboxRoutes.ROUTES as Array<[string, RegExp, { name: string }, boolean]>).find(
			([method, re]) => method === 'POST' && re.test('/v1/peppol/inbox/42/confirm'),
		);
		expect(route?.[2].name).toBe('confirm');
		expect(route?.[3]).toBe(true);
		expect(section.replace(/\s*\n\s*/g, ' ')).toContain(`['POST', ${String(route?.[1])}, confirm, true]`);
		expect(read('emulator/server.js')).toContain('...inbox.ROUTES');
		// 4. The tests it names hold the cases it says.
		expect(read('test/unit/inbox-requests.test.ts')).toContain('Confirm: POST …/{InboxItemID}/confirm without a body');
		expect(read('test/workflows/inbox.test.ts')).toContain("operation: 'confirm'");
		expect(read('test/emulator/inbox.test.ts')).toContain('/confirm');
		expect(read('test/reliability/bad-input-inbox.test.ts')).toContain("operation: 'confirm'");
	});
});
