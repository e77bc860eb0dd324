/**
 * nodes/shared/http is the bottom layer (issue #38, ARCHITECTURE.md): it imports n8n-workflow and its own
 * files only, never nodes/shared/{domain,query,fields,node} above it, and its files import each other
 * without a circle (type imports included); and it stays small: only what n8n does not do (at most 700 lines).
 */
import { repoFiles } from './helpers/repoFiles';

const sources = new Map(repoFiles(['nodes/shared/http']).map((file) => [file.path.replace('nodes/shared/http/', ''), file.text]));
const files = [...sources.keys()].filter((name) => name.endsWith('.ts'));
/** Every module a file imports or re-exports from, as written. */
const importsOf = (name: string) => [...(sources.get(name) ?? '').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((match) => match[1]);

describe('nodes/shared/http: the bottom layer', () => {
	it.each(files)('%s imports only n8n-workflow and files of http', (name) => {
		const outside = importsOf(name).filter((from) => from !== 'n8n-workflow' && !/^\.\/[\w-]+$/.test(from));
		expect(outside).toEqual([]);
	});

	it('its files import each other without a circle', () => {
		const edges = new Map(files.map((name) => [name, importsOf(name).flatMap((from) => (from.startsWith('./') ? [`${from.slice(2)}.ts`] : []))]));
		const circles: string[] = [];
		const visit = (name: string, path: string[]) => {
			if (path.includes(name)) {
				circles.push([...path.slice(path.indexOf(name)), name].join(' → '));
				return;
			}
			for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
		};
		for (const name of files) visit(name, []);
		expect(circles).toEqual([]);
	});

	it('holds at most 700 lines: what n8n does not do, nothing else (the credential read is node/credential.ts)', () => {
		const lines = files.reduce((total, name) => total + (sources.get(name) ?? '').split('\n').length - 1, 0);
		expect(lines).toBeGreaterThan(300);
		expect(lines).toBeLessThanOrEqual(700);
	});
});
