#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/inbox.js (checkInboxTrigger: the Peppol Inbox Trigger published, an IMR, then a queue of good,
 * hostile and oversized documents) alone against the real n8n from the e2e cache: npm pack + install into a temporary
 * user folder, the credential imported with n8n's CLI, `n8n start` on loopback, the check, then everything started is
 * stopped. (`npm run e2e` runs the same check as one of its steps.)
 *
 *   npm run build && node e2e/inbox-run.js [--keep]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureToolchain } = require('./install');
const { packAndInstall } = require('./lib/pack');
const { n8nEnv, freePort, cli, startServer, Rest, writeJson } = require('./lib/n8n');
const T = require('./lib/templates');
const { checkInboxTrigger } = require('./lib/inbox');

const REPO = path.resolve(__dirname, '..');

async function main() {
	const tc = ensureToolchain({ browser: false });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-inbox-'));
	const userFolder = path.join(work, 'n8n');
	const logFile = path.join(work, 'n8n-server.log');
	let emu;
	let server;
	const t0 = Date.now();
	try {
		packAndInstall({ repo: REPO, work, userFolder, tc });
		const { createEmulator } = require(path.join(REPO, 'emulator'));
		emu = await createEmulator({ port: 0, orders: 50 });
		const port = await freePort();
		const env = n8nEnv({ userFolder, port, brokerPort: await freePort(), n8nVersion: tc.n8n.version });
		writeJson(path.join(work, 'credentials.json'), [T.credentialFor(emu)]);
		const imported = await cli(tc, { ...env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) }, [
			'import:credentials',
			`--input=${path.join(work, 'credentials.json')}`,
		]);
		if (imported.code !== 0) throw new Error(`import:credentials exited ${imported.code}: ${imported.stderr.slice(-400)}`);
		server = await startServer(tc, env, { logFile });
		console.log(`n8n ${tc.n8n.version} at ${server.base} (ready in ${(server.ms / 1000).toFixed(1)} s); emulator ${emu.url}`);
		const rest = new Rest(server.base);
		await rest.loginOwner();
		const figures = await checkInboxTrigger({ rest, emulator: emu, log: (line) => console.log(`   ${line}`) });
		console.log(`inbox e2e: ok ${JSON.stringify(figures)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
	} catch (error) {
		console.log(`inbox e2e: FAILED ${error && error.message ? error.message : error}`);
		if (fs.existsSync(logFile))
			console.log(
				fs
					.readFileSync(logFile, 'utf8')
					.split('\n')
					.filter((l) => /error|inbox|AccessPoint/i.test(l))
					.slice(-20)
					.join('\n'),
			);
		process.exitCode = 1;
	} finally {
		if (server) await server.stop().catch(() => {});
		if (emu) await emu.close().catch(() => {});
		if (process.argv.includes('--keep')) console.log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main();
