// @ts-check
'use strict';
/** Compact, human-readable rendering of a harness result (for scripts and the demo). */

/**
 * JSON on one line, cut to maxLength with an ellipsis.
 * @param {unknown} value
 * @param {number} maxLength
 */
function compactJson(value, maxLength) {
	let text;
	try {
		text = JSON.stringify(value);
	} catch {
		text = String(value);
	}
	if (text === undefined) text = 'undefined';
	return text.length > maxLength ? `${text.slice(0, maxLength - 1)}\u2026` : text;
}

/**
 * @param {import('./result').HarnessResult} result
 * @param {{ maxItems?: number, maxWidth?: number, nodes?: string[] }} [options]
 * @returns {string}
 */
function formatResult(result, { maxItems = 5, maxWidth = 160, nodes } = {}) {
	const lines = [];
	const status = result.status + (result.waiting ? ` (resume URL ${result.waiting.resumeUrl})` : '');
	lines.push(`Execution ${result.executionId}: ${status}`);
	/** @type {string[]} */
	const order = [];
	for (const name of [...result.executedNodes, ...Object.keys(result.runData)]) if (!order.includes(name)) order.push(name);
	for (const name of nodes || order) {
		const runs = result.runs(name);
		if (!runs.length) {
			lines.push(`  ${name}: (did not run)`);
			continue;
		}
		runs.forEach((task, runIndex) => {
			const label = runs.length > 1 ? `${name} [run ${runIndex}]` : name;
			if (task.error) {
				const e = /** @type {{ message: string, description?: string }} */ (task.error);
				lines.push(`  ${label}: ERROR ${e.message}${e.description ? ` \u2014 ${e.description}` : ''}`);
			}
			const main = (task.data && task.data.main) || [];
			if (!main.length && !task.error) lines.push(`  ${label}: ${task.executionStatus || 'no output'}`);
			main.forEach((items, outputIndex) => {
				const list = items || [];
				const out = main.length > 1 ? ` output ${outputIndex}` : '';
				lines.push(`  ${label}${out}: ${list.length} item${list.length === 1 ? '' : 's'}`);
				list.slice(0, maxItems).forEach((item, i) => {
					lines.push(`    [${i}] ${compactJson(item.json, maxWidth)}`);
				});
				if (list.length > maxItems) lines.push(`    \u2026 ${list.length - maxItems} more`);
			});
		});
	}
	if (result.error && !Object.values(result.runData).some((runs) => runs.some((t) => t.error))) {
		lines.push(`  workflow error: ${result.error.message}`);
	}
	return lines.join('\n');
}

module.exports = { formatResult, compactJson };
