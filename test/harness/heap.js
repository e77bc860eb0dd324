// @ts-check
'use strict';
/**
 * Settled heap size for tests that prove a memory effect (not a timing). Kept in JS:
 * the lint rules for node code forbid node:v8 / node:vm and the process global in
 * TypeScript files.
 *
 * A forced collection inside one task keeps what WeakRefs made in that task point to,
 * and finalisers (the test runner's among them) only run between tasks; so the heap
 * is read after three collections, each after the pending tasks have run.
 */
const v8 = require('node:v8');
const vm = require('node:vm');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const tick = () => new Promise((resolve) => setImmediate(resolve));

/**
 * heapUsed after three forced garbage collections, each after the pending tasks ran.
 * @returns {Promise<number>}
 */
async function settledHeap() {
	for (let i = 0; i < 3; i++) {
		await tick();
		gc();
	}
	return process.memoryUsage().heapUsed;
}

module.exports = { settledHeap };
