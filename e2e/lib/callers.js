'use strict';
/**
 * Who called the emulator: a loopback TCP relay in front of it that names, for every
 * connection, the process that opened it. n8n's HTTP client opens one connection per
 * request, so "which n8n process made this API call" is read from the kernel, not from
 * n8n's own account: the client end of the socket (127.0.0.1:<peer port> in
 * /proc/net/tcp) has an inode, and exactly one of the watched processes holds a
 * `socket:[inode]` file descriptor. Linux only; the lookup runs while the client waits
 * for its answer, so the socket is still open.
 */
const fs = require('node:fs');
const net = require('node:net');

const REQUEST_LINE = /(GET|POST|PUT|PATCH|DELETE|HEAD) (\/[^ \r\n]*) HTTP\/1\.[01]\r\n/g;

/** inode of the IPv4 socket whose local end is 127.0.0.1:localPort and remote end 127.0.0.1:remotePort. */
function socketInode(localPort, remotePort) {
	const want = `0100007F:${localPort.toString(16).toUpperCase().padStart(4, '0')}`;
	const peer = `0100007F:${remotePort.toString(16).toUpperCase().padStart(4, '0')}`;
	const lines = fs.readFileSync('/proc/net/tcp', 'utf8').split('\n');
	for (let i = 1; i < lines.length; i++) {
		const f = lines[i].trim().split(/\s+/);
		if (f[1] === want && f[2] === peer) return f[9];
	}
	return undefined;
}

function holdsSocket(pid, inode) {
	const target = `socket:[${inode}]`;
	let fds;
	try {
		fds = fs.readdirSync(`/proc/${pid}/fd`);
	} catch {
		return false;
	}
	for (const fd of fds) {
		try {
			if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return true;
		} catch {
			// closed meanwhile
		}
	}
	return false;
}

/**
 * Starts the relay on 127.0.0.1:0 in front of `target` (http://127.0.0.1:PORT).
 * `watch(label, pid)` names a process; `requests` lists { label, pid, method, path, at, answeredAt }
 * (answeredAt: the first byte of the answer; a chunked answer of several parts counts once).
 * `onRequest(fn)` is called for every request line seen (fn(entry)).
 */
async function startCallerRelay(target) {
	const upstreamPort = Number(new URL(target).port);
	const watched = new Map(); // pid -> label
	const requests = [];
	const listeners = [];
	const sockets = new Set();
	const state = { attribute: true, lookups: 0, lookupMs: 0 };

	function whoIs(peerPort, ownPort) {
		if (!state.attribute) return { label: 'unattributed', pid: null };
		const t0 = process.hrtime.bigint();
		state.lookups++;
		try {
			const inode = socketInode(peerPort, ownPort);
			if (inode && inode !== '0') {
				for (const [pid, label] of watched) if (holdsSocket(pid, inode)) return { label, pid };
			}
			return { label: 'unknown', pid: null };
		} finally {
			state.lookupMs += Number(process.hrtime.bigint() - t0) / 1e6;
		}
	}

	const server = net.createServer((client) => {
		sockets.add(client);
		const who = whoIs(client.remotePort, server.address().port);
		const upstream = net.connect(upstreamPort, '127.0.0.1');
		sockets.add(upstream);
		const waiting = []; // this connection's requests not answered yet
		upstream.on('data', () => {
			const entry = waiting.shift();
			if (entry) entry.answeredAt = Date.now();
		});
		client.on('data', (chunk) => {
			const text = chunk.toString('latin1');
			REQUEST_LINE.lastIndex = 0;
			let m;
			while ((m = REQUEST_LINE.exec(text))) {
				const entry = { ...who, method: m[1], path: m[2], at: Date.now() };
				requests.push(entry);
				waiting.push(entry);
				for (const fn of listeners) {
					try {
						fn(entry);
					} catch {
						// a listener's problem is not the relay's
					}
				}
			}
		});
		client.pipe(upstream);
		upstream.pipe(client);
		const end = () => {
			client.destroy();
			upstream.destroy();
		};
		client.on('error', end);
		upstream.on('error', end);
		client.on('close', () => (sockets.delete(client), upstream.end()));
		upstream.on('close', () => (sockets.delete(upstream), client.end()));
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		url,
		requests,
		state,
		watch(label, pid) {
			for (const [p, l] of watched) if (l === label) watched.delete(p);
			if (pid) watched.set(pid, label);
		},
		onRequest(fn) {
			listeners.push(fn);
			return () => listeners.splice(listeners.indexOf(fn), 1);
		},
		/** Requests since index `from`, counted by caller label. */
		countBy(from = 0, filter = () => true) {
			const counts = {};
			for (const r of requests.slice(from)) if (filter(r)) counts[r.label] = (counts[r.label] || 0) + 1;
			return counts;
		},
		close() {
			return new Promise((resolve) => {
				for (const s of sockets) s.destroy();
				server.close(() => resolve());
			});
		},
	};
}

module.exports = { startCallerRelay, socketInode };
