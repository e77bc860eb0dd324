#!/usr/bin/env node
'use strict';
/**
 * The publish workflow's first step (.github/workflows/publish.yml, docs/release.md): refuses a
 * release unless
 *   - the tag is v<package.json version>,
 *   - package.json's `repository` is the GitHub repository the workflow runs in (npm provenance
 *     ties the package to that repository; n8n's verification compares the two),
 *   - CHANGELOG.md has a dated entry for that version, with something in it.
 *
 *   RELEASE_REPOSITORY=owner/name RELEASE_TAG=v1.2.3 node scripts/release-guard.js
 *
 * Prints what it checked; exit code 1 with every problem listed when one fails.
 */
const fs = require('node:fs');
const path = require('node:path');

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;

/**
 * owner/name of a GitHub repository from package.json's `repository` (object or string, in the
 * forms npm accepts), lower-cased; undefined when it names no GitHub repository.
 * @param {unknown} repository
 * @returns {string | undefined}
 */
function githubSlug(repository) {
	const url = typeof repository === 'string' ? repository : repository && typeof repository === 'object' ? repository.url : undefined;
	if (typeof url !== 'string') return undefined;
	const forms = [
		/^github:([\w.-]+\/[\w.-]+?)(?:\.git)?$/i,
		/^([\w.-]+\/[\w.-]+?)$/, // npm's shorthand "owner/name"
		/^(?:git\+)?(?:https|ssh|git):\/\/(?:git@)?github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/i,
		/^git@github\.com:([\w.-]+\/[\w.-]+?)(?:\.git)?$/i,
	];
	for (const form of forms) {
		const match = form.exec(url.trim());
		if (match) return match[1].toLowerCase();
	}
	return undefined;
}

/**
 * The body of CHANGELOG's `## [version] - YYYY-MM-DD` section (Keep a Changelog), or a problem.
 * @param {string} changelog
 * @param {string} version
 * @returns {{ body: string } | { problem: string }}
 */
function changelogEntry(changelog, version) {
	const lines = changelog.split(/\r?\n/);
	const escaped = version.replace(/[.+-]/g, '\\$&');
	const heading = new RegExp(`^## \\[${escaped}\\](?:\\s+-\\s+(\\S+))?\\s*$`);
	const at = lines.findIndex((line) => heading.test(line));
	if (at < 0) return { problem: `CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" entry` };
	const date = heading.exec(lines[at])[1];
	if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
		return { problem: `CHANGELOG.md's entry for ${version} has no release date (## [${version}] - YYYY-MM-DD)` };
	}
	const end = lines.findIndex((line, i) => i > at && /^## /.test(line));
	const body = lines
		.slice(at + 1, end < 0 ? undefined : end)
		.filter((line) => !/^\[[^\]]+\]:\s/.test(line)) // link references at the end of the file
		.join('\n')
		.trim();
	if (!/^\s*[-*] \S/m.test(body)) return { problem: `CHANGELOG.md's entry for ${version} lists no change` };
	return { body };
}

/**
 * Every reason to refuse this release; empty when it may be published.
 * @param {{ pkg: any, changelog: string | undefined, repository: string | undefined, tag: string | undefined }} input
 * @returns {string[]}
 */
function releaseProblems({ pkg, changelog, repository, tag }) {
	const problems = [];
	const version = pkg && typeof pkg.version === 'string' ? pkg.version : '';
	if (!SEMVER.test(version)) problems.push(`package.json's version "${version}" is not a semantic version`);

	if (!tag) problems.push('no tag given (RELEASE_TAG): the workflow publishes only on a version tag');
	else if (tag !== `v${version}`) problems.push(`the tag "${tag}" is not "v${version}" (package.json's version)`);

	const declared = githubSlug(pkg && pkg.repository);
	if (!repository) problems.push('no repository given (RELEASE_REPOSITORY): cannot compare it with package.json');
	else if (!declared) problems.push(`package.json's repository does not name a GitHub repository; this runs in ${repository}`);
	else if (declared !== repository.toLowerCase()) {
		problems.push(`package.json's repository is ${declared}, but this runs in ${repository}: npm provenance and n8n's verification need them to match`);
	}

	if (changelog === undefined) problems.push('CHANGELOG.md is missing');
	else if (version) {
		const entry = changelogEntry(changelog, version);
		if ('problem' in entry) problems.push(entry.problem);
	}
	return problems;
}

function main() {
	const root = path.resolve(__dirname, '..');
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const changelogPath = path.join(root, 'CHANGELOG.md');
	const changelog = fs.existsSync(changelogPath) ? fs.readFileSync(changelogPath, 'utf8') : undefined;
	const repository = process.env.RELEASE_REPOSITORY;
	const tag = process.env.RELEASE_TAG;
	const problems = releaseProblems({ pkg, changelog, repository, tag });
	console.log(`release guard: ${pkg.name}@${pkg.version}, tag ${tag ?? '(none)'}, repository ${repository ?? '(none)'}`);
	if (problems.length) {
		for (const problem of problems) console.log(`  REFUSED: ${problem}`);
		process.exit(1);
	}
	console.log('  ok: tag matches the version, package.json names this repository, CHANGELOG.md has the entry');
}

if (require.main === module) main();

module.exports = { releaseProblems, githubSlug, changelogEntry };
