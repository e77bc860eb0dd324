import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { isToolCall } from '../../nodes/shared/node/router';

const ctx = (type: string, extra: object = {}) => ({ getNode: () => ({ type }) as INode, ...extra }) as unknown as IExecuteFunctions;

describe('AI tool detection on n8n 1.x and 2.x contexts', () => {
	it('treats a context without isToolExecution (n8n 1.x) as a normal run instead of throwing', () => {
		expect(isToolCall(ctx('pkg.accessPointIdentification'))).toBe(false);
	});
	it('asks the context when it can tell (n8n 2.x over MCP: a supply-data context)', () => {
		expect(isToolCall(ctx('pkg.accessPointIdentification', { isToolExecution: () => true }))).toBe(true);
		expect(isToolCall(ctx('pkg.accessPointIdentification', { isToolExecution: () => false }))).toBe(false);
	});
	it("knows the AI Agent's tool by its `…Tool` node type, where isToolExecution() is false", () => {
		expect(isToolCall(ctx('pkg.accessPointIdentificationTool', { isToolExecution: () => false }))).toBe(true);
	});
});
