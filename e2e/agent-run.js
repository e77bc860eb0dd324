#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/agent.js (checkAgentAndMcp) alone against the real n8n from the e2e cache: npm pack +
 * install into a temporary user folder, an emulator and the scripted chat model in this process,
 * `n8n start` on loopback, the AI Agent conversations and the MCP client, then everything started is
 * stopped. The MCP client is @modelcontextprotocol/sdk (devDependency; else MCP_SDK_DIR, a folder made
 * with `npm install --prefix <dir> @modelcontextprotocol/sdk`; else n8n's own copy).
 * (`npm run e2e` runs the same check as one of its steps.)
 *
 *   npm run build && node e2e/agent-run.js [--keep]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureToolchain } = require('./install');
const { packAndInstall } = require('./lib/pack');
const { n8nEnv, freePort, startServer, Rest } = require('./lib/n8n');
const { checkAgentAndMcp } = require('./lib/agent');

const REPO = path.resolve(__dirname, '..');

async function main() {
	const tc = ensureToolchain({ browser: false });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-agent-'));
	const userFolder = path.join(work, 'n8n');
	const logFile = path.join(work, 'n8n-server.log');
	let server;
	const t0 = Date.now();
	try {
		packAndInstall({ repo: REPO, work, userFolder, tc });
		const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort(), n8nVersion: tc.n8n.version });
		server = await startServer(tc, env, { logFile, timeoutMs: 300000 });
		console.log(`n8n ${tc.n8n.version} at ${server.base} (ready in ${(server.ms / 1000).toFixed(1)} s)`);
		const rest = new Rest(server.base);
		await rest.loginOwner();
		const figures = await checkAgentAndMcp({ rest, baseUrl: server.base, repo: REPO, tc, log: (line) => console.log(`   ${line}`) });
		console.log(`agent + MCP e2e: ok ${JSON.stringify(figures)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
	} catch (error) {
		console.log(`agent + MCP e2e: FAILED ${error && error.message ? error.message : error}`);
		if (fs.existsSync(logFile))
			console.log(
				fs
					.readFileSync(logFile, 'utf8')
					.split('\n')
					.filter((l) => /error|warn|AccessPoint|agent|mcp|tool/i.test(l))
					.slice(-30)
					.join('\n'),
			);
		process.exitCode = 1;
	} finally {
		if (server) await server.stop().catch(() => {});
		if (process.argv.includes('--keep')) console.log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main();
