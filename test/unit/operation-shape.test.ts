/**
 * Every operation a file of one shape (issue #38, "The transport"; GUIDE "Shape", the Outlook v2 layout): each
 * `*.operation.ts` under nodes/ exports `execute` and a `description` that n8n's `updateDisplayOptions` built from
 * fields carrying no resource or operation condition of their own, so the file alone says where its fields show.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../../nodes/shared/node/router';
import { repoFiles } from './helpers/repoFiles';

/** Each call of updateDisplayOptions while the operation files load: its answer and the fields it was given. */
const mockBuilt = new Map<unknown, INodeProperties[]>();
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	return {
		...actual,
		updateDisplayOptions: (displayOptions: IDisplayOptions, properties: INodeProperties[]) => {
			const built = actual.updateDisplayOptions(displayOptions, properties);
			mockBuilt.set(built, properties);
			return built;
		},
	};
});

const nodeFiles = repoFiles(['nodes']).map((file: { path: string }) => file.path);
const operationFiles = nodeFiles.filter((path: string) => path.endsWith('.operation.ts'));
/** Each resource's list of operations (what the router and the node's description read): `nodes/X/actions/index.ts`, `nodes/Order/actions/x/index.ts`. */
const resourceLists = nodeFiles.filter((path: string) => /^nodes\/\w+\/actions\/(\w+\/)?index\.ts$/.test(path));

describe('operation files: one shape', () => {
	it('finds the operation files', () => {
		expect(operationFiles.length).toBeGreaterThan(30);
	});

	it.each(operationFiles)('%s exports execute and a description built by updateDisplayOptions', (path: string) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(`../../${path}`) as { description?: unknown; execute?: unknown };
		expect(typeof module.execute).toBe('function');
		expect(mockBuilt.has(module.description)).toBe(true);
		const given = mockBuilt.get(module.description) ?? [];
		expect(given.length).toBeGreaterThan(0);
		// The fields themselves hold no resource/operation condition: the operation file applies them.
		const ownConditions = given.filter((field) => {
			const show = field.displayOptions?.show ?? {};
			return 'resource' in show || 'operation' in show;
		});
		expect(ownConditions.map((field) => field.name)).toEqual([]);
	});

	it('finds every resource list', () => {
		expect(resourceLists.length).toBeGreaterThanOrEqual(9);
	});

	it.each(resourceLists)('%s: each operation listed runs the file named after its value', (path: string) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const lists = Object.values(require(`../../${path}`) as Record<string, ResourceOperations>);
		const folder = path.replace(/index\.ts$/, '');
		const entries = lists.flatMap((list) => list.operations);
		expect(entries.length).toBeGreaterThan(0);
		const elsewhere = entries.filter(({ value, module }) => {
			if (!operationFiles.includes(`${folder}${value}.operation.ts`)) return true;
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const file = require(`../../${folder}${value}.operation`) as { description?: unknown; execute?: unknown };
			return module.description !== file.description || module.execute !== file.execute;
		});
		expect(elsewhere.map(({ value }) => value)).toEqual([]);
	});
});
