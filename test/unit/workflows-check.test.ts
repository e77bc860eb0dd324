/**
 * The GitHub Actions workflows cannot run here, so scripts/check-workflows.js reads them and
 * scripts/release-guard.js is the publish job's first step (docs/release.md). These tests run
 * both on the repository's own files, and on altered copies to show each check can fail.
 */
import { packageJson, parseYaml, print, readText, runScript, workflowText, WORKFLOWS } from './helpers/release';

/* eslint-disable @typescript-eslint/no-require-imports */
const { checkWorkflows, checkPublish, checkCi } = require('../../scripts/check-workflows.js');
const { releaseProblems, githubSlug } = require('../../scripts/release-guard.js');
/* eslint-enable @typescript-eslint/no-require-imports */

interface Check {
	name: string;
	ok: boolean;
	detail?: string;
}
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const read = (file: string): Doc => parseYaml(workflowText(file)).doc;
const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.name);
const publishJob = (doc: Doc) => doc.jobs.publish as { steps: Doc[]; permissions: Doc };
const stepAt = (doc: Doc, pattern: RegExp) => publishJob(doc).steps.findIndex((s) => typeof s.run === 'string' && pattern.test(s.run));

describe('scripts/check-workflows.js on .github/workflows', () => {
	it('passes every check, and prints them', () => {
		const { status, stdout: out } = runScript('check-workflows.js');
		print(out);
		expect(status).toBe(0);
		const checks: Check[] = checkWorkflows(WORKFLOWS);
		expect(failed(checks)).toEqual([]);
		expect(checks.length).toBeGreaterThanOrEqual(25);
		expect(out).toMatch(new RegExp(`workflows: ${checks.length} passed, 0 failed`));
	});

	it('the publish workflow is what n8n asks for: tag trigger, id-token, guard first, tests, --provenance last', () => {
		const doc = read('publish.yml');
		expect(doc.on).toEqual({ push: { tags: ['v*.*.*'] } });
		expect(publishJob(doc).permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		const runs = publishJob(doc)
			.steps.map((s) => s.run)
			.filter(Boolean);
		expect(runs[0]).toBe('node scripts/release-guard.js');
		expect(runs[runs.length - 1]).toBe('npm publish --provenance --access public');
		expect(runs).toEqual(
			expect.arrayContaining(['npm ci --no-audit --no-fund', 'npm run lint -- --max-warnings=0', 'npm run build', 'npm run scan', 'npm test']),
		);
	});
});

describe('each publish.yml check fails on a copy that breaks it', () => {
	const cases: Array<[string, (doc: Doc) => void, RegExp]> = [
		['no id-token permission', (d) => delete publishJob(d).permissions['id-token'], /id-token: write/],
		['contents: write', (d) => (publishJob(d).permissions.contents = 'write'), /granted nothing more|contents: read/],
		['a workflow-wide write permission', (d) => (d.permissions = { contents: 'write' }), /workflow itself grants nothing/],
		['triggered by any tag', (d) => (d.on.push.tags = ['*.*.*']), /version tag/],
		['also on pushes to main', (d) => (d.on.push.branches = ['main']), /version tag/],
		['by hand as well', (d) => (d.on.workflow_dispatch = null), /version tag/],
		['without the release guard', (d) => publishJob(d).steps.splice(stepAt(d, /release-guard/), 1), /release guard/],
		['the guard not told the repository', (d) => delete publishJob(d).steps[stepAt(d, /release-guard/)].env.RELEASE_REPOSITORY, /repository it runs in/],
		[
			'the guard after the install',
			(d) => {
				const steps = publishJob(d).steps;
				const [guard] = steps.splice(stepAt(d, /release-guard/), 1);
				steps.splice(stepAt(d, /npm ci/) + 1, 0, guard);
			},
			/guard runs before anything is installed/,
		],
		['without tests', (d) => publishJob(d).steps.splice(stepAt(d, /npm test/), 1), /test runs before npm publish/],
		[
			'publish before the tests',
			(d) => {
				const steps = publishJob(d).steps;
				const [publish] = steps.splice(stepAt(d, /npm publish/), 1);
				steps.splice(stepAt(d, /npm test/), 0, publish);
			},
			/test runs before npm publish/,
		],
		['without --provenance', (d) => (publishJob(d).steps[stepAt(d, /npm publish/)].run = 'npm publish --access public'), /--provenance/],
		['a skippable test step', (d) => (publishJob(d).steps[stepAt(d, /npm test/)]['continue-on-error'] = true), /skipped or allowed to fail/],
		[
			'the tag spliced into a script',
			(d) => (publishJob(d).steps[stepAt(d, /release-guard/)].run = 'RELEASE_TAG=${{ github.ref_name }} node scripts/release-guard.js'),
			/expression inside a run/,
		],
		['no time limit', (d) => delete (publishJob(d) as Doc)['timeout-minutes'], /time limit/],
		['checkout keeping its token', (d) => delete publishJob(d).steps[0].with, /persist-credentials/],
	];
	it.each(cases)('%s', (_label, mutate, expected) => {
		const doc = read('publish.yml');
		mutate(doc);
		const names = failed(checkPublish({ doc }));
		expect(names.length).toBeGreaterThan(0);
		expect(names.join('\n')).toMatch(expected);
	});

	it('YAML that does not parse', () => {
		const broken = workflowText('publish.yml').replace('jobs:', 'jobs:\n  - [unclosed');
		const loaded = parseYaml(broken);
		expect(loaded.error).toBeDefined();
		expect(failed(checkPublish(loaded))).toEqual(['publish.yml: YAML parses']);
	});
});

describe('each ci.yml check fails on a copy that breaks it', () => {
	const cases: Array<[string, (doc: Doc) => void, RegExp]> = [
		['not on pull requests', (d) => delete d.on.pull_request, /pushes and pull requests/],
		['another command than .ci/run', (d) => (d.jobs.ci.steps[d.jobs.ci.steps.length - 1].run = 'npm test'), /runs \.ci\/run/],
		['write access', (d) => (d.permissions = { contents: 'write' }), /only reads/],
		['an OIDC token', (d) => (d.jobs.ci.permissions = { contents: 'read', 'id-token': 'write' }), /only reads/],
		['pull_request_target', (d) => (d.on = { pull_request_target: null, push: null, pull_request: null }), /pull_request_target/],
	];
	it.each(cases)('%s', (_label, mutate, expected) => {
		const doc = read('ci.yml');
		mutate(doc);
		expect(failed(checkCi({ doc })).join('\n')).toMatch(expected);
	});
});

describe('scripts/release-guard.js', () => {
	const pkg = packageJson();
	const changelog = readText('CHANGELOG.md') ?? '';
	const repository: string = githubSlug(pkg.repository);
	const tag = `v${pkg.version}`;

	it("accepts this repository's package.json and CHANGELOG.md on the version's tag", () => {
		expect(repository).toBe('n8n-nodes-access-point/n8n-nodes-access-point');
		expect(releaseProblems({ pkg, changelog, repository, tag })).toEqual([]);
		// GitHub names are case-insensitive.
		expect(releaseProblems({ pkg, changelog, repository: 'N8N-Nodes-Access-Point/n8n-nodes-access-point', tag })).toEqual([]);
	});

	it('refuses another repository (a fork), naming both', () => {
		expect(releaseProblems({ pkg, changelog, repository: 'someone/n8n-nodes-access-point', tag })).toEqual([
			`package.json's repository is ${repository}, but this runs in someone/n8n-nodes-access-point: npm provenance and n8n's verification need them to match`,
		]);
		expect(releaseProblems({ pkg: { ...pkg, repository: undefined }, changelog, repository, tag })).toEqual([
			`package.json's repository does not name a GitHub repository; this runs in ${repository}`,
		]);
	});

	it('refuses a tag that is not v<version>', () => {
		for (const wrong of [pkg.version, `v${pkg.version}-rc.1`, 'v9.9.9']) {
			expect(releaseProblems({ pkg, changelog, repository, tag: wrong })).toEqual([`the tag "${wrong}" is not "${tag}" (package.json's version)`]);
		}
		expect(releaseProblems({ pkg, changelog, repository, tag: undefined })[0]).toMatch(/no tag given/);
	});

	it('refuses a version without a dated, non-empty CHANGELOG entry', () => {
		const next = { ...pkg, version: '1.0.1' };
		expect(releaseProblems({ pkg: next, changelog, repository, tag: 'v1.0.1' })).toEqual(['CHANGELOG.md has no "## [1.0.1] - YYYY-MM-DD" entry']);
		const undated = changelog.replace(/^## \[Unreleased\]$/m, '## [1.0.1]');
		expect(releaseProblems({ pkg: next, changelog: undated, repository, tag: 'v1.0.1' })).toEqual([
			"CHANGELOG.md's entry for 1.0.1 has no release date (## [1.0.1] - YYYY-MM-DD)",
		]);
		// The Unreleased section emptied first: open work may have filled it.
		const empty = changelog.replace(/^## \[Unreleased\]$[\s\S]*?(?=^## \[)/m, '## [1.0.1] - 2027-01-04\n\n');
		expect(releaseProblems({ pkg: next, changelog: empty, repository, tag: 'v1.0.1' })).toEqual(["CHANGELOG.md's entry for 1.0.1 lists no change"]);
		const filled = changelog.replace(/^## \[Unreleased\]$/m, '## [1.0.1] - 2027-01-04\n\n### Fixed\n\n- Something.');
		expect(releaseProblems({ pkg: next, changelog: filled, repository, tag: 'v1.0.1' })).toEqual([]);
		expect(releaseProblems({ pkg, changelog: undefined, repository, tag })).toEqual(['CHANGELOG.md is missing']);
	});

	it('reads the repository forms npm accepts', () => {
		for (const form of [
			'https://github.com/o/r.git',
			'git+https://github.com/o/r.git',
			'git+ssh://git@github.com/o/r.git',
			'git@github.com:o/r.git',
			'github:o/r',
			'o/r',
			{ type: 'git', url: 'https://github.com/o/r' },
		]) {
			expect(githubSlug(form)).toBe('o/r');
		}
		for (const other of ['https://gitlab.com/o/r.git', 'https://github.com.evil.example/o/r', '', undefined, { url: 42 }]) {
			expect(githubSlug(other)).toBeUndefined();
		}
	});

	it('as the workflow runs it: exit 0 on the right tag and repository, 1 with the reasons otherwise', () => {
		const run = (env: Record<string, string>) => runScript('release-guard.js', [], env);
		const ok = run({ RELEASE_REPOSITORY: repository, RELEASE_TAG: tag });
		expect(ok.status).toBe(0);
		const refused = run({ RELEASE_REPOSITORY: 'someone/fork', RELEASE_TAG: tag });
		expect(refused.status).toBe(1);
		expect(refused.stdout).toMatch(/REFUSED: package.json's repository is .* but this runs in someone\/fork/);
	});
});
