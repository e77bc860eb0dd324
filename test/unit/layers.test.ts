/**
 * nodes/shared is layered one way (issue #38, ARCHITECTURE.md "Layout"): `fields` and `node` on top, `query` and `domain`
 * in the middle (pure values: no request, no parameter reading), `http` at the bottom. Every import and re-export of a
 * file in nodes/shared, type imports included, points at its own layer or a lower one; in the middle, `domain` imports
 * nothing of `query`; and no folder imports back into a node folder.
 */
import { repoFiles } from './helpers/repoFiles';

/** What each folder of nodes/shared may import from (besides itself and n8n-workflow). */
const ALLOWED: Record<string, string[]> = {
	http: [],
	domain: [],
	query: ['domain'],
	fields: ['node', 'query', 'domain', 'http'],
	node: ['fields', 'query', 'domain', 'http'],
};

const files = repoFiles(['nodes/shared']).filter((file) => file.path.endsWith('.ts'));
/** Every relative module a file imports or re-exports from, as a repository path. */
const importsOf = (file: { path: string; text: string }) =>
	[...file.text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gms)].map((match) => new URL(match[1], `file:///${file.path}`).pathname.slice(1));
const folderOf = (repoPath: string) => /^nodes\/shared\/([^/]+)\//.exec(repoPath)?.[1] ?? repoPath;

describe('nodes/shared: one-way layers', () => {
	it('has exactly the five folders of the layer table', () => {
		expect([...new Set(files.map((file) => folderOf(file.path)))].sort()).toEqual(Object.keys(ALLOWED).sort());
	});

	it.each(Object.keys(ALLOWED))('%s imports only its own layer and those below it', (folder) => {
		const wrong = files
			.filter((file) => folderOf(file.path) === folder)
			.flatMap((file) => importsOf(file).map((target) => ({ file: file.path, target, into: folderOf(target) })))
			.filter(({ into }) => into !== folder && !ALLOWED[folder].includes(into))
			.map(({ file, target }) => `${file} → ${target}`);
		expect(wrong).toEqual([]);
	});

	it('the layers themselves do not import upwards: the table is one way', () => {
		const rank: Record<string, number> = { http: 0, domain: 1, query: 1, fields: 2, node: 2 };
		const upwards = Object.entries(ALLOWED).flatMap(([folder, allowed]) => allowed.filter((to) => rank[to] > rank[folder]).map((to) => `${folder} → ${to}`));
		expect(upwards).toEqual([]);
	});
});

describe('nodes: no node folder, and no resource folder of the Order node, imports another', () => {
	const nodeFiles = repoFiles(['nodes']).filter((file) => file.path.endsWith('.ts') && !file.path.startsWith('nodes/shared/'));
	const nodeOf = (repoPath: string) => /^nodes\/([^/]+)\//.exec(repoPath)?.[1];
	const resourceOf = (repoPath: string) => /^nodes\/Order\/actions\/(order|party|product|file)\//.exec(repoPath)?.[1];

	it('a node imports only its own files and nodes/shared; a resource folder not another resource folder', () => {
		const wrong = nodeFiles
			.flatMap((file) => importsOf(file).map((target) => ({ file: file.path, target })))
			.filter(({ target }) => target.startsWith('nodes/') && !target.startsWith('nodes/shared/'))
			.filter(({ file, target }) => nodeOf(file) !== nodeOf(target) || (resourceOf(file) && resourceOf(target) && resourceOf(file) !== resourceOf(target)))
			.map(({ file, target }) => `${file} → ${target}`);
		expect(nodeFiles.length).toBeGreaterThan(50);
		expect(wrong).toEqual([]);
	});
});
