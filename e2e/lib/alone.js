'use strict';
/**
 * One e2e check run alone against the real n8n from the e2e cache (docs/e2e.md): npm pack + install into a temporary
 * user folder, the credential imported with n8n's CLI, `n8n start` on loopback, the check, then everything started is
 * stopped. `npm run e2e` runs the same checks as steps of one run.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureToolchain } = require('../install');
const { packAndInstall } = require('./pack');
const { n8nEnv, freePort, cli, startServer, Rest, writeJson } = require('./n8n');
const { openEditor } = require('./browser');
const T = require('./templates');

const REPO = path.resolve(__dirname, '..', '..');

/**
 * @param {string} name the check's name, in the temp folder's name and the result line
 * @param {RegExp} logLines which lines of n8n's log to show when the check fails
 * @param {(ctx: { rest: any, server: any, emulator: any, page?: any, log: (line: string) => void, restart: (whileDown: () => Promise<void>) => Promise<any> }) => Promise<unknown>} check
 *   resolves with the figures to print; throws when the check fails
 * @param {{ browser?: boolean, logDir?: string, orders?: number }} [options] `browser`: headless Chromium signed in to the editor (`page`);
 *   `logDir`: where n8n's log is kept (default the temporary folder, removed at the end); `orders`: the emulator's (default 50)
 */
async function runAlone(name, logLines, check, { browser = false, logDir, orders = 50 } = {}) {
	const tc = ensureToolchain({ browser });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), `ap-e2e-${name}-`));
	const userFolder = path.join(work, 'n8n');
	const logFile = path.join(logDir ?? work, 'n8n-server.log');
	let emu;
	let server;
	let editor;
	const t0 = Date.now();
	try {
		packAndInstall({ repo: REPO, work, userFolder, tc });
		const { createEmulator } = require(path.join(REPO, 'emulator'));
		emu = await createEmulator({ port: 0, orders });
		const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort(), n8nVersion: tc.n8n.version });
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
		/** Stops n8n, runs `whileDown`, starts it again on the same folder; a logged-in Rest of the new process. */
		const restart = async (whileDown) => {
			await server.stop();
			await whileDown();
			server = await startServer(tc, env, { logFile });
			console.log(`   n8n restarted (ready in ${(server.ms / 1000).toFixed(1)} s)`);
			const again = new Rest(server.base);
			await again.loginOwner();
			return again;
		};
		if (browser) editor = await openEditor({ tc, base: server.base });
		const figures = await check({ rest, server, emulator: emu, page: editor?.page, log: (line) => console.log(`   ${line}`), restart });
		console.log(`${name} e2e: ok ${JSON.stringify(figures)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
	} catch (error) {
		console.log(`${name} e2e: FAILED ${error && error.message ? error.message : error}`);
		if (fs.existsSync(logFile))
			console.log(
				fs
					.readFileSync(logFile, 'utf8')
					.split('\n')
					.filter((l) => logLines.test(l))
					.slice(-20)
					.join('\n'),
			);
		process.exitCode = 1;
	} finally {
		if (editor) await editor.close().catch(() => {});
		if (server) await server.stop().catch(() => {});
		if (emu) await emu.close().catch(() => {});
		if (process.argv.includes('--keep')) console.log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

module.exports = { runAlone };
