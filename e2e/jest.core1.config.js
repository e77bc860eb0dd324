/**
 * The engine-level jest suite against n8n 1.x: the last 1.x n8n-core with the
 * n8n-workflow and n8n-nodes-base it was released with (CORE1_MODULES: the
 * node_modules folder they are installed in, see e2e/core1.js). Every require of
 * those three packages, from the tests, the harness, our built dist/ and
 * n8n-core itself, is mapped there, so the nodes run on 1.x classes end to end.
 */
const path = require('node:path');
const base = require('../jest.config');

const modules = process.env.CORE1_MODULES;
if (!modules) throw new Error('CORE1_MODULES is not set (run through e2e/core1.js)');
const mapped = {};
for (const name of ['n8n-core', 'n8n-workflow', 'n8n-nodes-base']) {
	mapped[`^${name}$`] = path.join(modules, name);
	mapped[`^${name}/(.*)$`] = path.join(modules, name, '$1');
}

module.exports = {
	...base,
	rootDir: path.join(__dirname, '..'),
	moduleNameMapper: mapped,
};
