// @ts-check
'use strict';
/**
 * CPU time of a call, for tests that compare two reads' costs as a ratio (kept in JS: the lint rules for
 * TypeScript files forbid the process global).
 * @template T
 * @param {() => T} fn
 * @returns {{ result: T, ms: number }}
 */
function cpuTime(fn) {
	const before = process.cpuUsage();
	const result = fn();
	const used = process.cpuUsage(before);
	return { result, ms: (used.user + used.system) / 1000 };
}

module.exports = { cpuTime };
