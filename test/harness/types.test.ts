/**
 * The harness's types come from one source: the JSDoc of its modules, which
 * `tsc -p tsconfig.test.json` reads (allowJs) and checks against the code
 * (`// @ts-check` in every module). No hand-kept .d.ts can drift from it. The type probes
 * (types.check.ts) run in that type-check step; here, that they are still in it.
 */
import { readText } from '../unit/helpers/release';
import { harnessFiles } from './sources';

const files = harnessFiles();

describe('harness types', () => {
	it('has no hand-kept declaration file', () => {
		expect(files.filter((f) => f.name.endsWith('.d.ts')).map((f) => f.name)).toEqual([]);
	});

	it('has every module checked against its JSDoc', () => {
		const modules = files.filter((f) => f.name.endsWith('.js'));
		const unchecked = modules.filter((f) => !f.text.startsWith('// @ts-check\n')).map((f) => f.name);
		expect(modules.length).toBeGreaterThan(10);
		expect(unchecked).toEqual([]);
	});

	it('keeps its type probes in the type-check step (tsconfig.test.json includes types.check.ts, which still probes)', () => {
		const config = JSON.parse(readText('tsconfig.test.json') ?? '{}') as { include: string[] };
		expect(config.include).toContain('test/**/*.ts');
		const probes = readText('test/harness/types.check.ts') ?? '';
		expect(probes.match(/^\s*\/\/ @ts-expect-error /gm)?.length).toBeGreaterThanOrEqual(10);
		expect(probes).toContain('export async function typeProbes(');
	});
});
