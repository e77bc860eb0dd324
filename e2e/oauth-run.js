#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/oauth.js (checkOAuth) alone against the real n8n from the e2e cache: npm pack +
 * install into a temporary user folder, the emulator in this process, `n8n start` on loopback,
 * owner login (REST and the sign-in form in headless Chromium), the check, then everything
 * started is stopped. Screenshots go to E2E_ARTIFACTS (default .artifacts/e2e-oauth).
 * (`npm run e2e` runs the same check once the integrator wires it into e2e/run.js.)
 *
 *   npm run build && node e2e/oauth-run.js [--keep]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureToolchain } = require('./install');
const { n8nEnv, freePort, startServer, Rest, OWNER } = require('./lib/n8n');
const { packAndInstall } = require('./lib/pack');
const { checkOAuth } = require('./lib/oauth');

const REPO = path.resolve(__dirname, '..');
const ARTIFACTS = path.resolve(REPO, process.env.E2E_ARTIFACTS || path.join('.artifacts', 'e2e-oauth'));

async function main() {
	const tc = ensureToolchain({ browser: true });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-oauth-'));
	const userFolder = path.join(work, 'n8n');
	const userDataDir = path.join(work, 'chromium');
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	let emu;
	let server;
	let context;
	const t0 = Date.now();
	try {
		const packed = packAndInstall({ repo: REPO, work, userFolder, tc });
		console.log(`installed ${path.basename(packed.file)} (${packed.sizeKb.toFixed(1)} kB)`);
		const { createEmulator } = require(path.join(REPO, 'emulator'));
		emu = await createEmulator({ port: 0, orders: 1000 });
		const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort(), n8nVersion: tc.n8n.version });
		server = await startServer(tc, env, { logFile: path.join(ARTIFACTS, 'n8n-server.log') });
		console.log(`n8n ${tc.n8n.version} at ${server.base} (ready in ${(server.ms / 1000).toFixed(1)} s); emulator ${emu.url}`);
		const rest = new Rest(server.base);
		await rest.loginOwner();

		const { chromium } = require(tc.playwright.module);
		context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: tc.chromium.executablePath,
			headless: true,
			args: require('./lib/browser').chromiumArgs(),
			viewport: { width: 1440, height: 900 },
		});
		const page = context.pages()[0] || (await context.newPage());
		await page.goto(`${server.base}/signin`);
		await page.locator('input[name="emailOrLdapLoginId"]').waitFor({ timeout: 60000 });
		await page.fill('input[name="emailOrLdapLoginId"]', OWNER.email);
		await page.fill('input[name="password"]', OWNER.password);
		await page.click('[data-test-id="form-submit-button"]');
		await page.waitForURL((u) => !String(u).includes('/signin'), { timeout: 30000 });

		const result = await checkOAuth({ page, rest, baseUrl: server.base, emulator: emu, artifactsDir: ARTIFACTS, log: (line) => console.log(`   ${line}`) });
		for (const p of result.problems) console.log(`   FAIL ${p}`);
		console.log(`counts ${JSON.stringify(result.counts)}`);
		console.log(
			`oauth: ${result.problems.length ? 'FAILED' : 'ok'} in ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${path.relative(REPO, ARTIFACTS)}/`,
		);
		process.exitCode = result.problems.length ? 1 : 0;
	} finally {
		if (context) await context.close().catch(() => {});
		if (server) await server.stop().catch(() => {});
		if (emu) await emu.close().catch(() => {});
		if (process.argv.includes('--keep')) console.log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error && error.stack ? error.stack : error);
	process.exitCode = 1;
});
