'use strict';
/** What the running n8n must show of the package: the credential, every node, their icons. */

/** The node types and the credential the issues fix (independent of package.json, so a renamed entry shows). */
const REQUIRED = Object.freeze({
	nodes: [
		'n8n-nodes-access-point.accessPointRegistration',
		'n8n-nodes-access-point.accessPointIntegration',
		'n8n-nodes-access-point.accessPointIdentification',
		'n8n-nodes-access-point.accessPointPeppolLookup',
		'n8n-nodes-access-point.accessPointOrder',
		'n8n-nodes-access-point.accessPointOrderTrigger',
		'n8n-nodes-access-point.accessPointTrigger',
		'n8n-nodes-access-point.accessPointInbox',
		'n8n-nodes-access-point.accessPointInboxTrigger',
	],
	credentials: ['accessPointApi', 'accessPointOAuth2Api'],
});

function iconUrls(entry) {
	const u = entry.iconUrl;
	if (!u) return [];
	return typeof u === 'string' ? [u] : [u.light, u.dark].filter(Boolean);
}

/**
 * Checks /types/nodes.json and /types/credentials.json of the running n8n and
 * fetches every icon URL they give for our entries. Returns { problems, lines }.
 */
async function checkListing(rest) {
	const problems = [];
	const lines = [];
	const nodes = await rest.get('/types/nodes.json');
	const creds = await rest.get('/types/credentials.json');
	const byType = new Map();
	for (const n of nodes) if (!byType.has(n.name)) byType.set(n.name, n);
	const credByName = new Map(creds.map((c) => [c.name, c]));
	const missingNodes = REQUIRED.nodes.filter((t) => !byType.has(t));
	const missingCreds = REQUIRED.credentials.filter((c) => !credByName.has(c));
	if (missingNodes.length) problems.push(`node types missing from n8n: ${missingNodes.join(', ')}`);
	if (missingCreds.length) problems.push(`credential types missing from n8n: ${missingCreds.join(', ')}`);
	const extra = [...byType.keys()].filter((t) => t.startsWith('n8n-nodes-access-point.') && !REQUIRED.nodes.includes(t));
	if (extra.length) lines.push(`other node types of the package: ${extra.join(', ')}`);

	const entries = [
		...REQUIRED.nodes.filter((t) => byType.has(t)).map((t) => ({ label: t, entry: byType.get(t) })),
		...REQUIRED.credentials.filter((c) => credByName.has(c)).map((c) => ({ label: `credential ${c}`, entry: credByName.get(c) })),
	];
	for (const { label, entry } of entries) {
		const urls = iconUrls(entry);
		if (!urls.length) {
			problems.push(`${label}: no iconUrl in n8n's listing (icon: ${JSON.stringify(entry.icon)})`);
			continue;
		}
		const served = [];
		for (const url of urls) {
			const res = await rest.get(`/${url.replace(/^\//, '')}`, { raw: true });
			const body = await res.text();
			const type = res.headers.get('content-type') || '';
			if (res.status !== 200) problems.push(`${label}: icon ${url} -> HTTP ${res.status}`);
			else if (!/svg|png/.test(type) || !/<svg[\s>]/.test(body)) problems.push(`${label}: icon ${url} is not an SVG (content-type ${type})`);
			else served.push(`${url.split('/').pop()} ${body.length} B`);
		}
		lines.push(`${label}: "${entry.displayName}" v${[].concat(entry.version).join(',')}, icons ${served.join(' + ') || 'none'}`);
	}
	return { problems, lines, found: { nodes: REQUIRED.nodes.length - missingNodes.length, credentials: REQUIRED.credentials.length - missingCreds.length } };
}

/** Lines of n8n's log that tell why the package did not load (for the report). */
function packageLoadErrors(logText, packageName) {
	return logText
		.split('\n')
		.filter((l) => l.includes(packageName) || /Failed to load package|Skipping package|Cannot find module|ENOENT/.test(l))
		.filter((l) => /error|fail|skip|cannot|enoent/i.test(l))
		.slice(0, 10);
}

module.exports = { REQUIRED, checkListing, packageLoadErrors };
