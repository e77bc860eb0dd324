'use strict';
/**
 * Measure 5: cold require of every node and the credential (a fresh process per
 * run, bench/cases/cold-require.js), `npm pack --dry-run --json` size, runtime
 * dependencies in package.json and bare imports in dist/ other than n8n-workflow (and
 * node:crypto, which n8n's scanner allows).
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT, worker, runsWanted } = require('../lib/common');

function distFiles(dir) {
	const out = [];
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) out.push(...distFiles(p));
		else if (e.name.endsWith('.js')) out.push(p);
	}
	return out;
}

/** require('x') / import of anything but relative files and n8n-workflow, across dist/. */
function foreignImports(root) {
	const found = new Set();
	for (const file of distFiles(path.join(root, 'dist'))) {
		const text = fs.readFileSync(file, 'utf8');
		for (const m of text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)|\bfrom\s+["']([^"']+)["']/g)) {
			const spec = m[1] || m[2];
			// node:crypto (the AccessPoint Trigger's HMAC) is on n8n's scanner allow-list with n8n-workflow.
			if (spec.startsWith('.') || spec === 'n8n-workflow' || spec === 'crypto' || spec === 'node:crypto') continue;
			found.add(`${path.relative(root, file)}: ${spec}`);
		}
	}
	return [...found];
}

worker(async () => {
	const root = process.env.BENCH_PACKAGE_ROOT || ROOT;
	const runs = runsWanted();
	const cold = [];
	for (let i = 0; i <= runs; i++) {
		const text = execFileSync(process.execPath, [path.join(__dirname, 'cold-require.js'), root], { cwd: root, encoding: 'utf8' });
		if (i > 0) cold.push(JSON.parse(text));
	}
	const pack = [];
	for (let i = 0; i <= runs; i++) {
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const text = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		const [info] = JSON.parse(text);
		if (i > 0) pack.push({ size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount });
	}
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const dependencies = [
		...Object.keys(pkg.dependencies || {}),
		...Object.keys(pkg.optionalDependencies || {}),
		...(pkg.bundleDependencies || pkg.bundledDependencies || []),
	];
	return { cold, pack, dependencies, foreignImports: foreignImports(root) };
});
