import type { IExecuteFunctions } from 'n8n-workflow';

import { isToolExecution } from '../../nodes/Identification/actions';

describe('Identification on n8n 1.x contexts', () => {
	it('treats a context without isToolExecution (n8n 1.x) as a normal run instead of throwing', () => {
		expect(isToolExecution({} as IExecuteFunctions)).toBe(false);
	});
	it('asks the context when it can tell', () => {
		expect(isToolExecution({ isToolExecution: () => true } as unknown as IExecuteFunctions)).toBe(true);
		expect(isToolExecution({ isToolExecution: () => false } as unknown as IExecuteFunctions)).toBe(false);
	});
});
