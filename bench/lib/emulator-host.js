'use strict';
/**
 * Child process that hosts the emulators the bench talks to, so the server's
 * CPU time is not charged to the process being measured.
 *
 * Started by bench/lib/emulators.js with fork(). Every emulator it starts and a
 * small control server listen on 127.0.0.1. Workers drive the emulators through
 * the control server (POST /<name>/<command> with a JSON body): counting and
 * clearing the request log, adding orders, large PDFs and Peppol participants.
 */
const http = require('node:http');
const path = require('node:path');

const { createEmulator } = require(path.join(__dirname, '..', '..', 'emulator'));

const emulators = new Map();

const commands = {
	/** Requests logged since the last clear, optionally only those whose path starts with `pathPrefix`. */
	requests(emu, { method, pathPrefix } = {}) {
		const list = emu.requests.filter((r) => (!method || r.method === method) && (!pathPrefix || r.path.startsWith(pathPrefix)));
		return list.map((r) => ({ method: r.method, path: r.path, query: r.query, status: r.status }));
	},
	count(emu, { method, pathPrefix } = {}) {
		return emu.requests.filter((r) => (!method || r.method === method) && (!pathPrefix || r.path.startsWith(pathPrefix))).length;
	},
	clear(emu) {
		emu.clearRequests();
		return true;
	},
	config(emu, patch = {}) {
		Object.assign(emu.config, patch);
		return { ...emu.config };
	},
	now(emu) {
		return emu.clock.now().getTime();
	},
	/** Adds `count` orders of the master party, LastModified = Created = firstSecond + floor(i / perSecond). */
	addOrders(emu, { count, firstSecond, perSecond = 7 }) {
		const party = emu.credentials.partyId;
		const ids = [];
		for (let i = 0; i < count; i++) {
			const at = new Date((firstSecond + Math.floor(i / perSecond)) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
			ids.push(emu.store.addOrder(party, { Created: at, LastModified: at }).OrderID);
		}
		return ids;
	},
	/** The master party's order book as the API would list it (for the payload size). */
	orders(emu) {
		return emu.store.listOrders(emu.credentials.partyId);
	},
	/** A new invoice of the master party whose own PDF is exactly `bytes` long (emu.files.largePdf). */
	largePdf(emu, { bytes }) {
		const order = emu.store.addOrder(emu.credentials.partyId, { OrderType: 'Invoice' });
		const file = emu.files.largePdf(order.OrderID, bytes);
		return { orderId: order.OrderID, fileId: file.FileID, size: file.size };
	},
	addParticipants(emu, { identifiers, documentTypes = ['BISv3Invoice', 'BISv3CreditNote'] }) {
		for (const id of identifiers) emu.store.participants.add({ identifiers: [id], documentTypes });
		return identifiers.length;
	},
};

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

const control = http.createServer(async (req, res) => {
	try {
		const [, name, command] = req.url.split('/');
		const emu = emulators.get(name);
		if (!emu || !commands[command]) throw new Error(`unknown emulator or command: ${req.url}`);
		const text = await readBody(req);
		const result = await commands[command](emu, text ? JSON.parse(text) : {});
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(result === undefined ? null : result));
	} catch (error) {
		res.writeHead(500, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ error: error.message }));
	}
});

// Workers keep their connection to the control server between rounds.
control.keepAliveTimeout = 0;

process.on('message', async (message) => {
	try {
		if (message.cmd === 'start') {
			const list = {};
			for (const [name, options] of Object.entries(message.emulators)) {
				const emu = await createEmulator({ port: 0, ...options });
				emulators.set(name, emu);
				list[name] = { url: emu.url, credentials: emu.credentials };
			}
			await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));
			process.send({ ok: true, control: `http://127.0.0.1:${control.address().port}`, emulators: list });
		} else if (message.cmd === 'stop') {
			for (const emu of emulators.values()) await emu.close();
			control.close();
			process.send({ ok: true });
			process.disconnect();
		}
	} catch (error) {
		process.send({ ok: false, error: error.stack || error.message });
	}
});
