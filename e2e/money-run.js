#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/money.js alone against the real n8n from the e2e cache: npm pack + install into a
 * temporary user folder, the credential imported (n8n import:credentials) pointing at a fresh
 * emulator, `n8n start` on loopback, owner login, then the money checks in headless Chromium
 * (all of checkMoney's, or those named, e.g. typedAmounts). Screenshots go to E2E_ARTIFACTS
 * (default .artifacts/e2e-money). `npm run e2e` runs the same checks in its editor step.
 *
 *   npm run build && node e2e/money-run.js [typedAmounts ...] [--keep]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureToolchain } = require('./install');
const { n8nEnv, freePort, startServer, Rest, cli, writeJson } = require('./lib/n8n');
const { packAndInstall } = require('./lib/pack');
const { openEditor } = require('./lib/browser');
const { checkMoney } = require('./lib/money');
const T = require('./lib/templates');

const REPO = path.resolve(__dirname, '..');
const ARTIFACTS = path.resolve(REPO, process.env.E2E_ARTIFACTS || path.join('.artifacts', 'e2e-money'));

async function main() {
	const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
	const tc = ensureToolchain({ browser: true });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-money-'));
	const userFolder = path.join(work, 'n8n');
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	let server;
	let editor;
	let emu;
	const t0 = Date.now();
	try {
		const packed = packAndInstall({ repo: REPO, work, userFolder, tc });
		console.log(`installed ${path.basename(packed.file)} (${packed.sizeKb.toFixed(1)} kB)`);
		const { createEmulator } = require(path.join(REPO, 'emulator'));
		emu = await createEmulator({ port: 0, orders: 50 });
		const port = await freePort();
		const file = path.join(work, 'credentials.json');
		writeJson(file, [T.credentialFor(emu)]);
		const c = await cli(tc, n8nEnv({ userFolder, port, brokerPort: await freePort(), n8nVersion: tc.n8n.version }), ['import:credentials', `--input=${file}`]);
		if (c.code !== 0) throw new Error(`import:credentials exited ${c.code}: ${c.stderr.slice(-400)}`);
		const env = n8nEnv({ userFolder, port, brokerPort: await freePort(), n8nVersion: tc.n8n.version });
		server = await startServer(tc, env, { logFile: path.join(ARTIFACTS, 'n8n-server.log') });
		console.log(`n8n ${tc.n8n.version} at ${server.base} (ready in ${(server.ms / 1000).toFixed(1)} s); emulator ${emu.url}`);
		const rest = new Rest(server.base);
		await rest.loginOwner();
		editor = await openEditor({ tc, base: server.base });
		const result = await checkMoney({
			page: editor.page,
			rest,
			baseUrl: server.base,
			emulator: emu,
			artifactsDir: ARTIFACTS,
			only,
			log: (line) => console.log(`   ${line}`),
		});
		for (const p of result.problems) console.log(`   FAIL ${p}`);
		console.log(
			`money: ${result.problems.length ? `${result.problems.length} problem(s)` : 'ok'} in ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${path.relative(REPO, ARTIFACTS)}/`,
		);
		process.exitCode = result.problems.length ? 1 : 0;
	} finally {
		if (editor) await editor.close().catch(() => {});
		if (server) await server.stop().catch(() => {});
		if (emu && emu.close) await emu.close().catch(() => {});
		if (process.argv.includes('--keep')) console.log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error && error.stack ? error.stack : error);
	process.exitCode = 1;
});
