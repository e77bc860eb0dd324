'use strict';
/**
 * A local, deterministic OpenAI-compatible chat model for the e2e (issue 40): no network, no weights.
 * It answers `POST /v1/chat/completions` (JSON or SSE when `stream` is set) and `GET /v1/models`.
 * A conversation is scripted: `script(userText)` returns a function `(ctx) => step`, called once per
 * model turn with the tool results so far, that answers either `{ calls: [{ tool, args }] }` (tool calls
 * by name) or `{ text }` (the final answer, built from the tool results). Every request and every tool
 * result the model was given are recorded (`requests`, `toolResults`), so the e2e asserts on what the
 * model actually saw.
 *
 *   const model = await startChatModel({ script: (user) => (ctx) => ... });
 *   model.url  // http://127.0.0.1:<port>/v1, the OpenAI credential's Base URL
 */
const http = require('node:http');

/** A tool name as the model sees it in `tools`, matched loosely ("Find orders" ~ "Find_orders"). */
const norm = (name) =>
	String(name)
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '');

/**
 * @param {{ script: (userText: string) => ((ctx: { user: string, results: Array<{ tool: string, content: string }>, turn: number, tools: string[] }) => ({ calls: Array<{ tool: string, args: object }> } | { text: string })) }} options
 */
async function startChatModel({ script }) {
	const requests = [];
	const toolResults = [];
	let callId = 0;

	function answer(body) {
		const messages = Array.isArray(body.messages) ? body.messages : [];
		const tools = (body.tools || []).map((t) => (t.function ? t.function.name : t.name));
		const lastUser = messages
			.map((m, i) => [m, i])
			.filter(([m]) => m.role === 'user')
			.pop();
		const user = lastUser ? (typeof lastUser[0].content === 'string' ? lastUser[0].content : JSON.stringify(lastUser[0].content)) : '';
		const after = lastUser ? messages.slice(lastUser[1] + 1) : messages;
		// Tool results after the user's message, each with the tool the model called for it.
		const calls = new Map();
		for (const m of after) for (const c of m.tool_calls || []) calls.set(c.id, c.function.name);
		const results = after
			.filter((m) => m.role === 'tool')
			.map((m) => ({ tool: calls.get(m.tool_call_id) || '', content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
		for (const r of results.slice(toolResults.filter((t) => t.user === user).length)) toolResults.push({ user, ...r });
		const turn = after.filter((m) => m.role === 'assistant').length;
		const step = script(user)({ user, results, turn, tools });
		if ('text' in step) return { content: step.text, tool_calls: undefined };
		const toolCalls = step.calls.map(({ tool, args }) => {
			const name = tools.find((t) => norm(t) === norm(tool));
			if (!name) throw new Error(`the scripted model wants tool "${tool}", which n8n did not offer (offered: ${tools.join(', ')})`);
			return { id: `call_${++callId}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
		});
		return { content: null, tool_calls: toolCalls };
	}

	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (d) => (raw += d));
		req.on('end', () => {
			const send = (status, json) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(json));
			};
			if (req.method === 'GET' && /\/models\/?$/.test(req.url))
				return send(200, { object: 'list', data: [{ id: 'e2e-scripted', object: 'model', owned_by: 'e2e' }] });
			if (req.method !== 'POST' || !/\/chat\/completions\/?$/.test(req.url)) return send(404, { error: { message: `no route ${req.method} ${req.url}` } });
			let body;
			try {
				body = JSON.parse(raw);
			} catch {
				return send(400, { error: { message: 'body is not JSON' } });
			}
			requests.push(body);
			let message;
			try {
				message = answer(body);
			} catch (error) {
				return send(500, { error: { message: String(error.message || error) } });
			}
			const id = `chatcmpl-e2e-${requests.length}`;
			const finish = message.tool_calls ? 'tool_calls' : 'stop';
			const created = Math.floor(Date.now() / 1000);
			const usage = { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 10, total_tokens: Math.ceil(raw.length / 4) + 10 };
			if (!body.stream) {
				return send(200, {
					id,
					object: 'chat.completion',
					created,
					model: body.model,
					choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
					usage,
				});
			}
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			const chunk = (delta, finishReason = null) =>
				res.write(
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
				);
			chunk({ role: 'assistant', content: message.content || '' });
			if (message.tool_calls) chunk({ tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) });
			chunk({}, finish);
			res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
			res.end('data: [DONE]\n\n');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		toolResults,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

module.exports = { startChatModel };
