'use strict';
/**
 * One cold load of the package in this fresh process, as n8n loads it:
 * n8n-workflow is already in memory in n8n, so it is required first (untimed);
 * then every node and credential file listed in package.json's n8n section is
 * required and its class instantiated (what n8n's package loader does).
 * Prints { ms, cpuMs, withWorkflowMs, files, distFiles, modules } as JSON: wall and CPU time of
 * this process for the timed part (CPU time is what load from other processes does not inflate);
 * files: listed files required; distFiles and modules: files read from dist/ (one module per file).
 */
const path = require('node:path');

const root = process.argv[2];
const t00 = performance.now();
require(require.resolve('n8n-workflow', { paths: [root] }));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const pkg = require(path.join(root, 'package.json'));
const files = [...pkg.n8n.credentials, ...pkg.n8n.nodes];
for (const file of files) {
	const mod = require(path.join(root, file));
	const className = path.basename(file).split('.')[0];
	const Type = mod[className];
	if (typeof Type !== 'function') throw new Error(`${file} does not export ${className}`);
	const instance = new Type();
	if (!instance.description && !instance.name) throw new Error(`${className} has no description`);
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const dist = path.join(root, 'dist') + path.sep;
const distFiles = Object.keys(require.cache).filter((k) => k.startsWith(dist));
const modules = distFiles.length;
process.stdout.write(
	JSON.stringify({
		ms,
		cpuMs: (cpu.user + cpu.system) / 1000,
		withWorkflowMs: performance.now() - t00,
		files: files.length,
		distFiles: distFiles.length,
		modules,
	}),
);
