'use strict';
/**
 * The e2e's step runner, shared by e2e/run.js and e2e/queue.js: each step prints its name,
 * its lines and ok / FAILED / SKIPPED; the run goes on after a failed step where it can, and
 * the summary sets the exit code.
 */
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function createSteps({ log = (line = '') => console.log(line) } = {}) {
	const results = [];
	const t0 = Date.now();

	/** Runs one step; a thrown error or problems passed to `fail` mark it failed; `{ skipped: why }` as its value skips it. */
	async function step(name, fn) {
		const started = Date.now();
		log(`\n== ${name}`);
		const problems = [];
		let value;
		try {
			value = await fn((p) => problems.push(p));
		} catch (error) {
			problems.push(error && error.message ? error.message : String(error));
		}
		const ms = Date.now() - started;
		const skipped = value && value.skipped;
		for (const p of problems) log(`   FAIL ${p}`);
		log(`   ${problems.length ? 'FAILED' : skipped ? `SKIPPED (${skipped})` : 'ok'} (${secs(ms)})`);
		results.push({ name, ms, problems, skipped: !problems.length && skipped });
		return { value, ok: problems.length === 0 };
	}

	/** Records an error that stopped the runner itself as a failed step. */
	function crashed(name, error) {
		results.push({ name, ms: 0, problems: [error && error.stack ? error.stack : String(error)] });
		log(String(error && error.stack ? error.stack : error));
	}

	/** Prints the summary (`title`, then `<label>: N passed, N failed[, N skipped]`) and sets process.exitCode. */
	function summary({ title, label, where }) {
		const failed = results.filter((r) => r.problems.length);
		const skipped = results.filter((r) => r.skipped);
		log(`\n== ${title}`);
		for (const r of results) log(`   ${r.problems.length ? 'FAIL' : r.skipped ? 'skip' : 'ok  '} ${secs(r.ms).padStart(8)}  ${r.name}`);
		for (const r of failed) for (const p of r.problems) log(`   - ${r.name}: ${p}`);
		log(`   total ${secs(Date.now() - t0)}; ${where}`);
		log(`${label}: ${results.length - failed.length - skipped.length} passed, ${failed.length} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`);
		process.exitCode = failed.length || !results.length ? 1 : 0;
	}

	return { step, crashed, summary, results };
}

module.exports = { createSteps, secs };
