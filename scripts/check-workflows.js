#!/usr/bin/env node
'use strict';
/**
 * Checks the GitHub Actions workflows, since nothing here can run them (docs/release.md):
 *
 *   .github/workflows/publish.yml  on a v<version> tag only; the job may mint an OIDC token
 *                                  (id-token: write) and read the repository, nothing more;
 *                                  the release guard (scripts/release-guard.js: tag, repository,
 *                                  changelog) runs first, then install, lint, build, scanner,
 *                                  tests, and last `npm publish --provenance`.
 *   .github/workflows/ci.yml       on pushes and pull requests, runs .ci/run, read-only.
 *
 * In both, `${{ … }}` never appears inside a `run:` script (values reach scripts through env),
 * so a tag or branch name cannot inject shell.
 *
 *   node scripts/check-workflows.js [workflows folder]
 *
 * One line per check; exit code 1 when any fails.
 */
const fs = require('node:fs');
const path = require('node:path');
const yaml = require('js-yaml');

/** @typedef {{ name: string, ok: boolean, detail?: string }} Check */

function load(file) {
	try {
		return { doc: yaml.load(fs.readFileSync(file, 'utf8'), { filename: file }) };
	} catch (error) {
		return { error: error.message.split('\n')[0] };
	}
}

const asList = (value) => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The `on:` block as an object (js-yaml reads the key `on` as the string "on"). */
function triggers(doc) {
	const on = doc.on;
	if (typeof on === 'string') return { [on]: null };
	if (Array.isArray(on)) return Object.fromEntries(on.map((event) => [event, null]));
	return isObject(on) ? on : {};
}

/** Effective permissions of a job: its own block, else the workflow's. */
function permissionsOf(doc, job) {
	return job.permissions !== undefined ? job.permissions : doc.permissions;
}

function stepIndex(steps, test) {
	return steps.findIndex((step) => isObject(step) && test(step));
}

const runs = (pattern) => (step) => typeof step.run === 'string' && pattern.test(step.run);
const uses = (action) => (step) => typeof step.uses === 'string' && step.uses.split('@')[0] === action;

/** Checks shared by both workflows: parsed, one job at least, no expression inside a script. */
function common(label, loaded) {
	/** @type {Check[]} */
	const checks = [];
	checks.push({ name: `${label}: YAML parses`, ok: !loaded.error && isObject(loaded.doc), detail: loaded.error });
	if (loaded.error || !isObject(loaded.doc)) return { checks };
	const doc = loaded.doc;
	const jobs = isObject(doc.jobs) ? Object.entries(doc.jobs) : [];
	checks.push({ name: `${label}: has a job with steps`, ok: jobs.some(([, job]) => isObject(job) && Array.isArray(job.steps)) });
	const injected = [];
	for (const [id, job] of jobs) {
		for (const step of isObject(job) ? asList(job.steps) : []) {
			if (isObject(step) && typeof step.run === 'string' && step.run.includes('${{')) injected.push(`${id}: ${step.name ?? step.run.split('\n')[0]}`);
		}
	}
	checks.push({ name: `${label}: no \${{ }} expression inside a run: script`, ok: injected.length === 0, detail: injected.join('; ') });
	checks.push({ name: `${label}: not triggered by pull_request_target`, ok: !('pull_request_target' in triggers(doc)) });
	return { checks, doc, jobs };
}

/**
 * @param {{ error?: string, doc?: any }} loaded
 * @returns {Check[]}
 */
function checkPublish(loaded) {
	const label = 'publish.yml';
	const { checks, doc, jobs } = common(label, loaded);
	if (!doc) return checks;

	const on = triggers(doc);
	const tags = isObject(on.push) ? asList(on.push.tags) : [];
	const onlyTags = Object.keys(on).length === 1 && isObject(on.push) && Object.keys(on.push).every((key) => key === 'tags');
	checks.push({
		name: `${label}: runs on a pushed version tag v*.*.* only`,
		ok: onlyTags && tags.length > 0 && tags.every((tag) => /^v/.test(String(tag))) && tags.includes('v*.*.*'),
		detail: JSON.stringify(on),
	});

	const publishing = jobs.filter(([, job]) => isObject(job) && asList(job.steps).some((step) => isObject(step) && runs(/\bnpm publish\b/)(step)));
	checks.push({ name: `${label}: one job publishes`, ok: publishing.length === 1 });
	if (publishing.length !== 1) return checks;
	const [id, job] = publishing[0];
	const steps = asList(job.steps);
	const perms = permissionsOf(doc, job);
	const extra = isObject(perms)
		? Object.entries(perms).filter(
				([scope, level]) => !(scope === 'id-token' && level === 'write') && !(scope === 'contents' && level === 'read') && level !== 'none',
			)
		: [];
	checks.push({
		name: `${label}: job "${id}" has permissions id-token: write (provenance) and contents: read`,
		ok: isObject(perms) && perms['id-token'] === 'write' && perms.contents === 'read',
		detail: JSON.stringify(perms),
	});
	checks.push({ name: `${label}: job "${id}" is granted nothing more`, ok: isObject(perms) && extra.length === 0, detail: JSON.stringify(extra) });
	const workflowPerms = doc.permissions;
	checks.push({
		name: `${label}: the workflow itself grants nothing (permissions: {})`,
		ok: isObject(workflowPerms) && Object.keys(workflowPerms).length === 0,
		detail: JSON.stringify(workflowPerms),
	});

	const at = {
		checkout: stepIndex(steps, uses('actions/checkout')),
		setupNode: stepIndex(
			steps,
			(step) => uses('actions/setup-node')(step) && isObject(step.with) && /^https:\/\/registry\.npmjs\.org\/?$/.test(String(step.with['registry-url'])),
		),
		guard: stepIndex(steps, runs(/^\s*node scripts\/release-guard\.js\s*$/)),
		install: stepIndex(steps, runs(/\bnpm ci\b/)),
		lint: stepIndex(steps, runs(/\bnpm run lint -- --max-warnings=0\b/)),
		build: stepIndex(steps, runs(/\bnpm run build\b/)),
		scan: stepIndex(steps, runs(/\bnpm run scan\b/)),
		test: stepIndex(steps, runs(/\bnpm test\b/)),
		publish: stepIndex(steps, runs(/\bnpm publish\b/)),
	};
	const guard = steps[at.guard];
	const guardEnv = guard && isObject(guard.env) ? guard.env : {};
	const checkout = steps[at.checkout];
	checks.push({
		name: `${label}: checks out without keeping the token (persist-credentials: false)`,
		ok: !!checkout && isObject(checkout.with) && checkout.with['persist-credentials'] === false,
	});
	checks.push({ name: `${label}: setup-node points npm at https://registry.npmjs.org/`, ok: at.setupNode >= 0 });
	checks.push({
		name: `${label}: the release guard gets the repository it runs in and the tag`,
		ok:
			at.guard >= 0 &&
			/^\$\{\{\s*github\.repository\s*\}\}$/.test(String(guardEnv.RELEASE_REPOSITORY)) &&
			/^\$\{\{\s*github\.ref_name\s*\}\}$/.test(String(guardEnv.RELEASE_TAG)),
		detail: JSON.stringify(guardEnv),
	});
	checks.push({ name: `${label}: the release guard runs before anything is installed`, ok: at.guard >= 0 && at.install > at.guard && at.guard > at.checkout });
	for (const stage of ['install', 'lint', 'build', 'scan', 'test']) {
		checks.push({ name: `${label}: ${stage} runs before npm publish`, ok: at[stage] >= 0 && at[stage] < at.publish && at[stage] > at.guard });
	}
	const publish = steps[at.publish];
	checks.push({ name: `${label}: npm publish --provenance`, ok: !!publish && /\bnpm publish\b[^\n]*\s--provenance\b/.test(publish.run) });
	checks.push({ name: `${label}: npm publish is the last step`, ok: at.publish === steps.length - 1 });
	const conditional = steps.slice(0, at.publish + 1).filter((step) => isObject(step) && ('if' in step || step['continue-on-error']));
	checks.push({
		name: `${label}: no step up to the publish is skipped or allowed to fail`,
		ok: conditional.length === 0,
		detail: conditional.map((step) => step.name).join('; '),
	});
	checks.push({ name: `${label}: the job has a time limit`, ok: Number.isInteger(job['timeout-minutes']) && job['timeout-minutes'] > 0 });
	return checks;
}

/**
 * @param {{ error?: string, doc?: any }} loaded
 * @returns {Check[]}
 */
function checkCi(loaded) {
	const label = 'ci.yml';
	const { checks, doc, jobs } = common(label, loaded);
	if (!doc) return checks;
	const on = triggers(doc);
	checks.push({ name: `${label}: runs on pushes and pull requests`, ok: 'push' in on && 'pull_request' in on, detail: JSON.stringify(on) });
	const running = jobs.filter(([, job]) => isObject(job) && asList(job.steps).some((step) => isObject(step) && runs(/^\s*(?:bash\s+)?\.ci\/run\s*$/m)(step)));
	checks.push({ name: `${label}: a job runs .ci/run`, ok: running.length > 0 });
	for (const [id, job] of jobs) {
		const perms = permissionsOf(doc, job);
		const writes = isObject(perms) ? Object.entries(perms).filter(([, level]) => level === 'write') : [];
		checks.push({
			name: `${label}: job "${id}" only reads (contents: read, no id-token)`,
			ok: isObject(perms) && perms.contents === 'read' && writes.length === 0,
			detail: JSON.stringify(perms),
		});
		checks.push({ name: `${label}: job "${id}" has a time limit`, ok: Number.isInteger(job['timeout-minutes']) && job['timeout-minutes'] > 0 });
	}
	return checks;
}

/**
 * @param {string} dir the workflows folder
 * @returns {Check[]}
 */
function checkWorkflows(dir) {
	return [...checkPublish(load(path.join(dir, 'publish.yml'))), ...checkCi(load(path.join(dir, 'ci.yml')))];
}

function main() {
	const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '.github', 'workflows'));
	const checks = checkWorkflows(dir);
	for (const check of checks) console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}${!check.ok && check.detail ? ` (${check.detail})` : ''}`);
	const failed = checks.filter((check) => !check.ok).length;
	console.log(`workflows: ${checks.length - failed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

if (require.main === module) main();

module.exports = { checkWorkflows, checkPublish, checkCi };
