import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forOperation } from '../../nodes/shared/fields/display';

const fields: INodeProperties[] = [
	{ displayName: 'Name', name: 'name', type: 'string', default: '' },
	{ displayName: 'Limit', name: 'limit', type: 'number', default: 50, displayOptions: { show: { returnAll: [false] } } },
	{ displayName: 'Note', name: 'note', type: 'string', default: '', displayOptions: { hide: { mode: ['raw'] }, show: { resource: ['order'] } } },
];

describe('forOperation', () => {
	it('shows each field for the operation only, keeping its other conditions, as updateDisplayOptions does', () => {
		const ours = forOperation('create', fields);
		expect(ours).toEqual(updateDisplayOptions({ show: { operation: ['create'] } }, fields));
		expect(ours[1].displayOptions).toEqual({ show: { returnAll: [false], operation: ['create'] } });
		expect(ours[2].displayOptions).toEqual({ hide: { mode: ['raw'] }, show: { resource: ['order'], operation: ['create'] } });
	});

	it('leaves the fields it was given unchanged', () => {
		const before = JSON.stringify(fields);
		forOperation('get', fields);
		expect(JSON.stringify(fields)).toBe(before);
	});
});
