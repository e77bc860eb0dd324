/**
 * Every "Docs" link n8n shows for this package leads to a README section that exists: each
 * node's `documentationUrl` (n8n's editor opens it as is; a codex URL gets `?utm_…` appended
 * after the `#anchor`, which breaks the anchor), each node's codex `primaryDocumentation`, and
 * each credential's `documentationUrl`. The nodes and credentials are the ones package.json's
 * "n8n" section lists, so a node added there is checked too. Links point at the README of the
 * repository package.json names (docs/release.md says why), with GitHub's heading anchors.
 */
import { loadPackageCredentials, packageJson, print, readText } from './helpers/release';
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

describe('docs links of every node and credential package.json lists', () => {
	const pkg = packageJson();
	const repository: string = githubSlug(pkg.repository);
	const readme = readText('README.md') ?? '';
	const links = packageLinks();

	it('resolve to a README section on the repository package.json names', () => {
		print(`[docs links] ${links.length} links, README.md has ${anchors(readme).size} anchors\n${links.map((l) => `    ${l.what}: ${String(l.url)}`).join('\n')}`);
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
