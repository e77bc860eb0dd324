#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/editorImport.js (checkEditorImport) alone against the real n8n from the e2e cache:
 * npm pack + install into a temporary user folder, `n8n start` on loopback, owner login, then
 * every template in examples/ (or those named) imported through the editor and run from the
 * canvas. Screenshots go to E2E_ARTIFACTS (default .artifacts/e2e-import). `npm run e2e` runs the
 * same check as one of its steps.
 *
 *   npm run build && node e2e/import-run.js [onboard-company.json ...] [--keep]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureToolchain } = require('./install');
const { n8nEnv, freePort, startServer, Rest } = require('./lib/n8n');
const { packAndInstall } = require('./lib/pack');
const { openEditor } = require('./lib/browser');
const { checkEditorImport } = require('./lib/editorImport');
const T = require('./lib/templates');

const REPO = path.resolve(__dirname, '..');
const ARTIFACTS = path.resolve(REPO, process.env.E2E_ARTIFACTS || path.join('.artifacts', 'e2e-import'));

async function main() {
	const only = process.argv
		.slice(2)
		.filter((a) => a.endsWith('.json'))
		.map((a) => path.basename(a));
	const tc = ensureToolchain({ browser: true });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-e2e-import-'));
	const userFolder = path.join(work, 'n8n');
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	let server;
	let editor;
	const t0 = Date.now();
	try {
		const packed = packAndInstall({ repo: REPO, work, userFolder, tc });
		console.log(`installed ${path.basename(packed.file)} (${packed.sizeKb.toFixed(1)} kB)`);
		const env = n8nEnv({ userFolder, port: await freePort(), brokerPort: await freePort(), n8nVersion: tc.n8n.version });
		server = await startServer(tc, env, { logFile: path.join(ARTIFACTS, 'n8n-server.log') });
		console.log(`n8n ${tc.n8n.version} at ${server.base} (ready in ${(server.ms / 1000).toFixed(1)} s)`);
		const rest = new Rest(server.base);
		await rest.loginOwner();
		editor = await openEditor({ tc, base: server.base });
		const templates = T.listTemplates(REPO).filter((t) => !only.length || only.includes(t.file));
		const result = await checkEditorImport({
			page: editor.page,
			rest,
			baseUrl: server.base,
			templates,
			artifactsDir: ARTIFACTS,
			log: (line) => console.log(`   ${line}`),
		});
		for (const p of result.problems) console.log(`   FAIL ${p}`);
		console.log(
			`editor import: ${templates.length} template(s), ${result.problems.length ? `${result.problems.length} problem(s)` : 'ok'} in ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${path.relative(REPO, ARTIFACTS)}/`,
		);
		process.exitCode = result.problems.length ? 1 : 0;
	} finally {
		if (editor) await editor.close().catch(() => {});
		if (server) await server.stop().catch(() => {});
		if (process.argv.includes('--keep')) console.log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error && error.stack ? error.stack : error);
	process.exitCode = 1;
});
