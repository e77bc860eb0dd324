/**
 * Every "Docs" link n8n shows for this package leads to a README section that exists: each
 * node's `documentationUrl` (n8n's editor opens it as is; a codex URL gets `?utm_…` appended
 * after the `#anchor`, which breaks the anchor), each node's codex `primaryDocumentation`, and
 * each credential's `documentationUrl`. The nodes and credentials are the ones package.json's
 * "n8n" section lists, so a node added there is checked too. Links point at the README of the
 * repository package.json names (docs/release.md says why), with GitHub's heading anchors.
 */
import { exists, loadPackageCredentials, packageJson, print, readText } from './helpers/release';
import { loadPackageNodes } from './packageNodes';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { githubSlug } = require('../../scripts/release-guard.js');

/** GitHub's (and npm's) id for a heading's text: lower-case, punctuation dropped, spaces to '-'. */
function slug(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** The text a reader sees of a heading's Markdown: code, links and emphasis reduced to their words. */
function headingText(markdown: string): string {
	return markdown
		.replace(/\s+#+\s*$/, '') // closing hashes
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
		.replace(/<[^>]+>/g, '') // inline HTML
		.replace(/`([^`]*)`/g, '$1')
		.replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, '$2') // emphasis
		.trim();
}

/** Every heading anchor of a Markdown page, duplicates numbered (-1, -2 …) as GitHub does. */
function anchors(markdown: string): Set<string> {
	const found = new Set<string>();
	const occurrences = new Map<string, number>();
	let fence: string | undefined;
	for (const line of markdown.split(/\r?\n/)) {
		const fenceMark = /^ {0,3}(```+|~~~+)/.exec(line);
		if (fenceMark) {
			if (!fence) fence = fenceMark[1][0];
			else if (fenceMark[1][0] === fence) fence = undefined;
			continue;
		}
		if (fence) continue;
		const heading = /^ {0,3}#{1,6}\s+(.*)$/.exec(line);
		if (!heading) continue;
		const base = slug(headingText(heading[1]));
		let id = base;
		if (occurrences.has(id)) {
			let n = occurrences.get(base) ?? 0;
			do id = `${base}-${++n}`;
			while (occurrences.has(id));
			occurrences.set(base, n);
		}
		occurrences.set(id, 0);
		found.add(id);
	}
	return found;
}

interface DocLink {
	what: string;
	url: unknown;
}

/** What is wrong with each link: missing, not on the repository's README page, or an anchor the README lacks. */
function brokenLinks(links: DocLink[], readme: string, repository: string): string[] {
	const ids = anchors(readme);
	const page = `https://github.com/${repository}`;
	const problems: string[] = [];
	for (const { what, url } of links) {
		if (typeof url !== 'string' || url === '') {
			problems.push(`${what}: no link`);
			continue;
		}
		const [address, anchor, ...rest] = url.split('#');
		if (address.toLowerCase() !== page.toLowerCase() || rest.length) problems.push(`${what}: ${url} is not a section of ${page}`);
		else if (!anchor) problems.push(`${what}: ${url} names no section (#anchor)`);
		else if (!ids.has(anchor)) problems.push(`${what}: README.md has no section #${anchor}`);
	}
	return problems;
}

function packageLinks(): DocLink[] {
	const links: DocLink[] = [];
	for (const { description, codex } of loadPackageNodes()) {
		const resources = (codex as { resources?: { primaryDocumentation?: Array<{ url?: unknown }> } } | undefined)?.resources;
		links.push({ what: `node ${description.name} documentationUrl`, url: description.documentationUrl });
		links.push({ what: `node ${description.name} codex primaryDocumentation`, url: resources?.primaryDocumentation?.[0]?.url });
	}
	for (const { credential } of loadPackageCredentials()) {
		links.push({ what: `credential ${credential.name} documentationUrl`, url: credential.documentationUrl });
	}
	return links;
}

describe('README anchors (GitHub/npm slug rules)', () => {
	it('lower-cases, drops punctuation, turns spaces into dashes and numbers duplicates', () => {
		const page = [
			'# AccessPoint OAuth2 API (OAuth 2.0)',
			'## Order › Get Many',
			'### `Include Files` and **Maximum File Size**',
			'## [Peppol Lookup](#peppol)',
			'## Order',
			'## Order',
			'## Order',
			'```bash',
			'# not a heading',
			'```',
			'## Snake_case stays ##',
		].join('\n');
		expect([...anchors(page)]).toEqual([
			'accesspoint-oauth2-api-oauth-20',
			'order--get-many',
			'include-files-and-maximum-file-size',
			'peppol-lookup',
			'order',
			'order-1',
			'order-2',
			'snake_case-stays',
		]);
	});
});

/** The targets of a Markdown page's inline links (`[text](target)`), outside code. */
function linkTargets(markdown: string): string[] {
	const prose = markdown.replace(/^ {0,3}(```|~~~)[^]*?^ {0,3}\1/gm, '').replace(/`[^`\n]*`/g, '');
	return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/**
 * What is wrong with the links of one Markdown page of this repository that lead into it: a file
 * that does not exist, or an anchor its Markdown lacks. `page` is repo-relative; the README's links
 * into the repository must be absolute (`https://github.com/<repo>/blob/main/<path>`, `tree` for a
 * folder), since it is
 * also shown on the npm registry's page, where a relative link may not resolve. Other sites are not
 * checked.
 */
function brokenRepoLinks(
	page: string,
	markdown: string,
	repository: string,
	read: (file: string) => string | undefined,
	has: (file: string) => boolean,
): string[] {
	const problems: string[] = [];
	const bases = ['blob', 'tree'].map((kind) => `https://github.com/${repository}/${kind}/main/`.toLowerCase());
	const folder = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : '';
	for (const target of linkTargets(markdown)) {
		let file: string;
		const base = bases.find((b) => target.toLowerCase().startsWith(b));
		if (base) file = target.slice(base.length);
		else if (/^[a-z][a-z+.-]*:/i.test(target))
			continue; // another site, mailto:
		else if (target.startsWith('#')) file = page + target;
		else if (page === 'README.md') {
			problems.push(`${page}: ${target} is relative; write https://github.com/${repository}/blob/main/${target}`);
			continue;
		} else file = folder + target;
		const [pathPart, anchor] = file.split('#');
		const parts: string[] = [];
		for (const part of pathPart.replace(/\/$/, '').split('/')) {
			if (part === '..') parts.pop();
			else if (part !== '.' && part !== '') parts.push(part);
		}
		const resolved = parts.join('/');
		if (!has(resolved)) problems.push(`${page}: ${target} leads to ${resolved}, which does not exist`);
		else if (anchor && (!resolved.endsWith('.md') || !anchors(read(resolved) ?? '').has(anchor)))
			problems.push(`${page}: ${target}: ${resolved} has no section #${anchor}`);
	}
	return problems;
}

const DOCS = [
	'README.md',
	'CHANGELOG.md',
	'SECURITY.md',
	'ARCHITECTURE.md',
	'docs/development.md',
	'docs/nodes.md',
	'docs/reliability.md',
	'docs/performance.md',
	'docs/queue-mode.md',
	'docs/e2e.md',
	'docs/emulator.md',
	'docs/money.md',
	'docs/release.md',
];

describe('links of the README and docs/ into this repository', () => {
	const repository: string = githubSlug(packageJson().repository);
	const has = (file: string) => exists(file);

	it('lead to files and sections that exist', () => {
		const pages = DOCS.filter(has);
		const count = pages.reduce((n, page) => n + linkTargets(readText(page) ?? '').length, 0);
		print(`[repo links] ${pages.length} pages, ${count} links`);
		expect(pages).toEqual(DOCS);
		expect(pages.flatMap((page) => brokenRepoLinks(page, readText(page) ?? '', repository, readText, has))).toEqual([]);
	});

	it('a missing file, a missing section and a relative README link are reported', () => {
		const page = [
			`[a](https://github.com/${repository}/blob/main/docs/nodes.md#no-such-section)`,
			`[b](https://github.com/${repository}/blob/main/docs/missing.md)`,
			'[c](docs/nodes.md)',
			'[d](#credentials)',
			'[e](#nowhere)',
			'[f](https://example.com/x#y) `[g](nowhere.md)`',
		].join('\n');
		expect(brokenRepoLinks('README.md', `## Credentials\n${page}`, repository, readText, has)).toEqual([
			`README.md: https://github.com/${repository}/blob/main/docs/nodes.md#no-such-section: docs/nodes.md has no section #no-such-section`,
			`README.md: https://github.com/${repository}/blob/main/docs/missing.md leads to docs/missing.md, which does not exist`,
			`README.md: docs/nodes.md is relative; write https://github.com/${repository}/blob/main/docs/nodes.md`,
			'README.md: #nowhere: README.md has no section #nowhere',
		]);
		expect(brokenRepoLinks('docs/x.md', '[a](nodes.md#order) [b](../examples/) [c](../nope.md) [d](money.md#nope)', repository, readText, has)).toEqual([
			'docs/x.md: ../nope.md leads to nope.md, which does not exist',
			'docs/x.md: money.md#nope: docs/money.md has no section #nope',
		]);
	});
});

describe('docs links of every node and credential package.json lists', () => {
	const pkg = packageJson();
	const repository: string = githubSlug(pkg.repository);
	const readme = readText('README.md') ?? '';
	const links = packageLinks();

	it('resolve to a README section on the repository package.json names', () => {
		print(
			`[docs links] ${links.length} links, README.md has ${anchors(readme).size} anchors\n${links.map((l) => `    ${l.what}: ${String(l.url)}`).join('\n')}`,
		);
		expect(repository).toBeDefined();
		// two per node (documentationUrl, codex) and one per credential
		expect(links.length).toBe(pkg.n8n.nodes.length * 2 + pkg.n8n.credentials.length);
		expect(brokenLinks(links, readme, repository)).toEqual([]);
	});

	it('each node opens the same section from its settings and from its codex', () => {
		const byNode = new Map<string, Set<unknown>>();
		for (const { what, url } of links.filter((l) => l.what.startsWith('node '))) {
			const node = what.split(' ')[1];
			byNode.set(node, (byNode.get(node) ?? new Set()).add(url));
		}
		expect([...byNode.values()].every((urls) => urls.size === 1)).toBe(true);
	});

	it('a section missing from the README, another page or a missing link is reported', () => {
		const withoutTrigger = readme.replace(/^### Order Trigger$/m, '### Polling');
		expect(brokenLinks(links, withoutTrigger, repository)).toEqual([
			'node accessPointOrderTrigger documentationUrl: README.md has no section #order-trigger',
			'node accessPointOrderTrigger codex primaryDocumentation: README.md has no section #order-trigger',
		]);
		expect(
			brokenLinks(
				[
					{ what: 'a', url: `https://github.com/${repository}/wiki#order` },
					{ what: 'b', url: `https://github.com/${repository}` },
					{ what: 'c', url: undefined },
				],
				readme,
				repository,
			),
		).toEqual([
			`a: https://github.com/${repository}/wiki#order is not a section of https://github.com/${repository}`,
			`b: https://github.com/${repository} names no section (#anchor)`,
			'c: no link',
		]);
	});
});
