#!/usr/bin/env node
'use strict';
/**
 * Runs workflow JSON files (n8n export format) through n8n-core with this
 * package loaded, against the local emulator, and prints what every node
 * output.
 *
 *   node scripts/run-workflow.js examples/foo.json [more.json ...]
 *
 * Options:
 *   --input '<json>'     items for the start node (an object or an array)
 *   --mode manual|trigger
 *   --no-emulator        do not start the emulator (use --credentials)
 *   --credentials '<json>'  accessPointApi data (merged over the emulator's)
 *   --resume 'a=1&b=2'   if the run waits, GET its resume URL with this query
 *   --expire             if the run waits, let the wait time out
 *   --max-items N        items printed per output (default 5)
 *   --json               print { node: outputs } as JSON instead
 *   --no-build           do not build dist/ when it is missing or stale
 *
 * Exits 1 if a workflow ends in error (or still waits), 2 on bad usage.
 */
const fs = require('node:fs');
const path = require('node:path');

const harnessDir = path.join(__dirname, '..', 'test', 'harness');

function usage(message) {
	if (message) console.error(message);
	console.error('usage: node scripts/run-workflow.js <workflow.json> [...] [--input JSON] [--mode manual|trigger] [--resume QUERY] [--expire] [--json]');
	process.exit(2);
}

function parseArgs(argv) {
	const opts = { files: [], maxItems: 5, emulator: true, build: true };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const next = () => {
			if (i + 1 >= argv.length) usage(`${a} needs a value`);
			return argv[++i];
		};
		if (a === '--input') opts.input = next();
		else if (a === '--mode') opts.mode = next();
		else if (a === '--no-emulator') opts.emulator = false;
		else if (a === '--credentials') opts.credentials = next();
		else if (a === '--resume') opts.resume = next();
		else if (a === '--expire') opts.expire = true;
		else if (a === '--max-items') opts.maxItems = Number(next());
		else if (a === '--json') opts.json = true;
		else if (a === '--no-build') opts.build = false;
		else if (a === '--help' || a === '-h') usage();
		else if (a.startsWith('--')) usage(`unknown option ${a}`);
		else opts.files.push(a);
	}
	if (!opts.files.length) usage('no workflow file given');
	return opts;
}

function parseJson(text, what) {
	try {
		return JSON.parse(text);
	} catch (e) {
		return usage(`${what} is not valid JSON: ${e.message}`);
	}
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	if (opts.build) {
		const { buildIfNeeded } = require(path.join(harnessDir, 'build'));
		const b = buildIfNeeded({ stdio: ['ignore', 'ignore', 'inherit'] });
		if (b.built) console.log(`Built dist/ (${b.reason})${b.ok ? '' : ' \u2014 the build reported errors, running what was emitted'}`);
	}
	const { createHarness } = require(harnessDir);
	const h = await createHarness({
		emulator: opts.emulator ? undefined : false,
		credentials: opts.credentials ? parseJson(opts.credentials, '--credentials') : undefined,
	});
	if (opts.emulator && !h.emulator) console.log('(emulator/index.js not found: running without the emulator)');
	if (h.emulator) console.log(`Emulator at ${h.emulator.url}`);
	let failed = false;
	try {
		for (const file of opts.files) {
			const workflow = parseJson(fs.readFileSync(file, 'utf8'), file);
			let input;
			if (opts.input) {
				const parsed = parseJson(opts.input, '--input');
				input = Array.isArray(parsed) ? parsed : [parsed];
			}
			console.log(`\n=== ${file}${workflow.name ? ` (${workflow.name})` : ''}`);
			let result = await h.run(workflow, { input, mode: opts.mode });
			if (result.status === 'waiting') {
				console.log(`Waiting in "${result.waiting.nodeName}" until ${result.waiting.waitTill.toISOString()}; resume URL ${result.resumeUrl}`);
				if (opts.resume !== undefined) {
					const query = Object.fromEntries(new URLSearchParams(opts.resume));
					const { response, result: resumed } = await h.resume(result, { query });
					console.log(`Resume request answered ${response.status}`);
					if (resumed) result = resumed;
				} else if (opts.expire) {
					result = await h.expire(result);
					console.log('Let the wait time out');
				}
			}
			if (opts.json) console.log(JSON.stringify({ status: result.status, error: result.error && result.error.message, nodes: result.summary() }, null, 2));
			else console.log(h.format(result, { maxItems: opts.maxItems }));
			if (result.status !== 'success') failed = true;
		}
	} finally {
		await h.close();
	}
	process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
	console.error(error && error.stack ? error.stack : error);
	process.exit(1);
});
