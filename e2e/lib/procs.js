'use strict';
/**
 * Process trees and CPU time from /proc (Linux): n8n starts a task-runner child per
 * process, Postgres a backend per connection; both count towards their parent here and
 * are stopped by PID when a parent is killed outright.
 */
const fs = require('node:fs');

const TICKS = 100; // USER_HZ on Linux

/** { pid, ppid, cpu } of every readable process: seconds of user + system time, its own and that of its reaped children. */
function snapshot() {
	const out = [];
	for (const d of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(d)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
			const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			out.push({ pid: Number(d), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS });
		} catch {
			// gone meanwhile
		}
	}
	return out;
}

/** PIDs of `pid` and all its descendants. */
function tree(pid, snap = snapshot()) {
	const kids = new Map();
	for (const p of snap) {
		if (!kids.has(p.ppid)) kids.set(p.ppid, []);
		kids.get(p.ppid).push(p.pid);
	}
	const all = [];
	const stack = [pid];
	while (stack.length) {
		const p = stack.pop();
		all.push(p);
		for (const k of kids.get(p) || []) stack.push(k);
	}
	return all;
}

/** CPU seconds used so far by each named tree: { name: seconds } (a child reaped by its parent counts in the parent). */
function cpuByTree(roots) {
	const snap = snapshot();
	const byPid = new Map(snap.map((p) => [p.pid, p]));
	const out = {};
	for (const [name, pid] of Object.entries(roots)) {
		if (!pid) continue;
		out[name] = tree(pid, snap).reduce((s, p) => s + (byPid.has(p) ? byPid.get(p).cpu : 0), 0);
	}
	return out;
}

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Descendants of `pid` (not itself) that are still running. */
function descendants(pid) {
	return tree(pid).filter((p) => p !== pid);
}

/** Seconds of CPU time the whole machine spent busy and in total so far (/proc/stat, all cores). */
function machineCpu() {
	const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
	const idle = f[3] + (f[4] || 0); // idle + iowait
	const total = f.slice(0, 8).reduce((a, b) => a + b, 0); // user nice system idle iowait irq softirq steal
	return { busy: (total - idle) / TICKS, total: total / TICKS };
}

module.exports = { snapshot, tree, cpuByTree, descendants, alive, machineCpu };
