'use strict';
/**
 * "Ran on a worker", from three records that do not depend on each other:
 *  - n8n's: main logs `Execution <id> (job <j>) finished` with the `workerId` the worker
 *    reported (its hostId, `worker-<hostname>`), and each worker's own log says
 *    `Worker started execution <id> (job <j>)`;
 *  - n8n's event log of each process (n8n.node.finished per node, with the execution id):
 *    which process ran which of the package's nodes;
 *  - the kernel's: the process that opened each connection to the emulator (lib/callers.js).
 */
const fs = require('node:fs');
const path = require('node:path');

const PKG_PREFIX = 'n8n-nodes-access-point.';

function readJsonLines(file) {
	let text = '';
	try {
		text = fs.readFileSync(file, 'utf8');
	} catch {
		return [];
	}
	const out = [];
	for (const line of text.split('\n')) {
		if (!line) continue;
		try {
			out.push(JSON.parse(line));
		} catch {
			// a line being written
		}
	}
	return out;
}

class Proof {
	constructor(cluster) {
		this.cluster = cluster;
	}

	/** hostId (as n8n reports it) -> process name, from each process's "n8n.worker.started" event. */
	hostIds() {
		const map = {};
		for (const proc of this.cluster.procs.values()) {
			for (const e of this.events(proc.name)) {
				if (e.eventName === 'n8n.worker.started' && e.payload && e.payload.workerId) map[e.payload.workerId] = proc.name;
			}
		}
		return map;
	}

	/** The event log files of a process: n8n rotates them on every start (events-main-1.log ...). */
	eventLogs(name) {
		const re = new RegExp(`^events-${name}(-\\d+)?\\.log$`);
		return fs
			.readdirSync(this.cluster.logDir)
			.filter((f) => re.test(f))
			.map((f) => path.join(this.cluster.logDir, f));
	}

	events(name) {
		return this.eventLogs(name).flatMap(readJsonLines);
	}

	/** [{ job, workerId, worker }] from main's (and the webhook process's) "Execution X (job J) finished" lines. */
	finishedBy(executionId) {
		const ids = this.hostIds();
		const seen = new Map();
		for (const name of ['main', 'webhook']) {
			for (const l of this.cluster.logLines(name)) {
				const m = l.metadata || {};
				if (m.executionId === String(executionId) && /^Execution \d+ \(job \d+\) finished$/.test(l.message || '')) {
					seen.set(m.jobId, { job: m.jobId, workerId: m.workerId, worker: ids[m.workerId] || `unknown hostId ${m.workerId}`, recordedBy: name });
				}
			}
		}
		return [...seen.values()];
	}

	/** Which process logged "Enqueued execution X (job J)". */
	enqueuedBy(executionId) {
		const out = [];
		for (const proc of this.cluster.procs.values()) {
			if (proc.role === 'worker') continue;
			for (const l of this.cluster.logLines(proc.name)) {
				const m = l.metadata || {};
				if (m.executionId === String(executionId) && /^Enqueued execution \d+ \(job \d+\)$/.test(l.message || '')) out.push({ job: m.jobId, by: proc.name });
			}
		}
		return out;
	}

	/** Worker names whose own log says "Worker started execution X". */
	startedIn(executionId) {
		const out = [];
		for (const proc of this.cluster.procs.values()) {
			if (proc.role !== 'worker') continue;
			for (const l of this.cluster.logLines(proc.name)) {
				const m = l.metadata || {};
				if (m.executionId === String(executionId) && /^Worker started execution/.test(l.message || '')) out.push({ job: m.jobId, worker: proc.name });
			}
		}
		return out;
	}

	/** { processName: [nodeName...] } of the package's nodes that finished in execution X, per n8n's event logs. */
	packageNodeRuns(executionId) {
		const out = {};
		for (const proc of this.cluster.procs.values()) {
			for (const e of this.events(proc.name)) {
				const p = e.payload || {};
				if (e.eventName === 'n8n.node.finished' && p.executionId === String(executionId) && String(p.nodeType || '').startsWith(PKG_PREFIX)) {
					(out[proc.name] = out[proc.name] || []).push(p.nodeName);
				}
			}
		}
		return out;
	}

	/**
	 * Everything known about where execution X ran, plus problems when any part of it ran
	 * outside a worker or the records disagree. `requests` are the relay's entries made
	 * while the execution ran (only meaningful when nothing else ran meanwhile).
	 */
	judge(executionId, { requests, allowed = () => false } = {}) {
		const problems = [];
		const finished = this.finishedBy(executionId);
		const started = this.startedIn(executionId);
		const nodes = this.packageNodeRuns(executionId);
		if (!finished.length) problems.push(`n8n recorded no worker finishing execution ${executionId}`);
		for (const f of finished)
			if (!/^worker-\d+$/.test(f.worker)) problems.push(`execution ${executionId} job ${f.job} finished by ${f.workerId} (not one of our workers)`);
		for (const f of finished) {
			if (!started.some((s) => s.job === f.job && s.worker === f.worker))
				problems.push(
					`main says ${f.worker} finished job ${f.job} of execution ${executionId}, but ${f.worker}'s log has no "Worker started execution ${executionId} (job ${f.job})"`,
				);
		}
		const nodeProcs = Object.keys(nodes);
		if (!nodeProcs.length) problems.push(`no node of the package finished in execution ${executionId} (n8n event logs)`);
		for (const p of nodeProcs) if (!p.startsWith('worker-')) problems.push(`package node(s) ${nodes[p].join(', ')} of execution ${executionId} ran in ${p}`);
		const callers = {};
		for (const r of requests || []) callers[r.label] = (callers[r.label] || 0) + 1;
		const outside = (requests || []).filter((r) => !r.label.startsWith('worker-') && !allowed(r));
		const byLabel = {};
		for (const r of outside) byLabel[r.label] = (byLabel[r.label] || 0) + 1;
		for (const label of Object.keys(byLabel)) problems.push(`${byLabel[label]} API request(s) during execution ${executionId} came from ${label}`);
		const workers = [...new Set(finished.map((f) => f.worker))];
		const line =
			`n8n: job(s) ${finished.map((f) => `${f.job} finished by ${f.workerId} = ${f.worker}`).join(', ') || 'none'}; ` +
			`event logs: ${nodeProcs.map((p) => `${nodes[p].length} package node run(s) in ${p}`).join(', ') || 'none'}` +
			(requests
				? `; kernel: ${
						Object.entries(callers)
							.map(([l, n]) => `${n} API request(s) from ${l}`)
							.join(', ') || 'no API request'
					}`
				: '');
		return { problems, line, workers, finished, nodes, callers };
	}
}

module.exports = { Proof, readJsonLines, PKG_PREFIX };
