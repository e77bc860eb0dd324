'use strict';
/**
 * Settled heap size for tests that prove a memory effect (not a timing): two forced
 * collections, then heapUsed. Kept in JS: the lint rules for node code forbid
 * node:v8 / node:vm and the process global in TypeScript files.
 */
const v8 = require('node:v8');
const vm = require('node:vm');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function settledHeap() {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

module.exports = { settledHeap };
