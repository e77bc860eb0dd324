'use strict';
/**
 * `npm pack`, then `npm install <tgz>` in <N8N_USER_FOLDER>/.n8n/nodes as n8n's community
 * package installer does (peer dependencies left out: the package runs on the loading n8n's
 * n8n-workflow). The same recipe as step 2 of e2e/run.js.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { writeJson } = require('./n8n');

function packAndInstall({ repo, work, userFolder, tc }) {
	if (!fs.existsSync(path.join(repo, 'dist'))) throw new Error('dist/ is missing: run npm run build first');
	const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: repo, encoding: 'utf8' });
	const file = path.join(work, out.trim().split('\n').pop());
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	writeJson(path.join(nodesDir, 'package.json'), { name: 'installed-nodes', private: true, dependencies: {} });
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--legacy-peer-deps', '--install-strategy=shallow', file], {
		cwd: nodesDir,
		encoding: 'utf8',
		env: { ...process.env, PATH: `${path.dirname(tc.node.bin)}${path.delimiter}${process.env.PATH}` },
	});
	const installed = path.join(nodesDir, 'node_modules', 'n8n-nodes-access-point', 'package.json');
	if (!fs.existsSync(installed)) throw new Error(`npm install did not create ${installed}`);
	return { file, sizeKb: fs.statSync(file).size / 1024, installedDir: path.dirname(installed) };
}

module.exports = { packAndInstall };
