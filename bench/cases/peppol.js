'use strict';
/**
 * Measure 4: Peppol Lookup over 1,000 items carrying 100 distinct identifiers
 * (every third one registered), default options, against n8n's HTTP Request node
 * (latest 4.x, default options) calling the participant endpoint once per item.
 * Rounds alternate which node runs first; time is each node's execute() call.
 */
const { ctl, worker, settle, instrument, harnessFor, rotation, runsWanted } = require('../lib/common');

/** Valid Belgian enterprise number n (mod-97 check digits). */
function enterpriseNumber(n) {
	const first8 = String(4_000_000 + n).padStart(8, '0');
	return `${first8}${String(97 - (Number(first8) % 97)).padStart(2, '0')}`;
}

worker(async () => {
	const control = process.env.BENCH_CONTROL;
	const emu = JSON.parse(process.env.BENCH_EMU);
	const runs = runsWanted();
	const creds = emu.credentials;
	const PATH = '/v1/peppol/participantInformation/';

	const distinct = Array.from({ length: 100 }, (_, n) => `0208:${enterpriseNumber(n)}`);
	await ctl(control, 'peppol', 'addParticipants', { identifiers: distinct.filter((_, n) => n % 3 === 0) });
	const input = Array.from({ length: 1000 }, (_, j) => ({ id: distinct[(j * 37) % 100], j }));

	let h = await harnessFor(creds);
	const lookupType = h.nodeTypes.getByNameAndVersion('n8n-nodes-access-point.accessPointPeppolLookup');
	const httpVersion = h.nodeTypes.latestVersion('n8n-nodes-base.httpRequest');
	const httpType = h.nodeTypes.getByNameAndVersion('n8n-nodes-base.httpRequest', httpVersion);
	const lookupTimer = instrument(lookupType, 'execute');
	const httpTimer = instrument(httpType, 'execute');
	await h.close();

	const lookupStep = { type: 'accessPointPeppolLookup', name: 'Lookup', parameters: { identifier: '={{ $json.id }}' } };
	const httpStep = {
		type: 'httpRequest',
		name: 'HTTP Request',
		typeVersion: httpVersion,
		parameters: {
			method: 'GET',
			url: `=${emu.url}${PATH}{{ $json.id }}`,
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'apikey', value: creds.apiKey },
					{ name: 'partyID', value: creds.partyId },
				],
			},
			options: {},
		},
	};

	const count = () => ctl(control, 'peppol', 'count', { method: 'GET', pathPrefix: PATH });
	const variants = {
		async lookup() {
			h = await harnessFor(creds);
			const result = await h.run(h.chain([lookupStep]), { input });
			result.assertSuccess();
			const out = result.items('Lookup', 0).length + result.items('Lookup', 1).length;
			await h.close();
			if (out !== input.length) throw new Error(`Peppol Lookup output ${out} items`);
			return { ms: lookupTimer.last().ms, cpuMs: lookupTimer.last().cpuMs };
		},
		async http() {
			h = await harnessFor(creds);
			const result = await h.run(h.chain([httpStep]), { input });
			result.assertSuccess();
			const out = result.items('HTTP Request').length;
			await h.close();
			if (out !== input.length) throw new Error(`HTTP Request output ${out} items`);
			return { ms: httpTimer.last().ms, cpuMs: httpTimer.last().cpuMs };
		},
	};
	const names = Object.keys(variants);
	const rounds = [];
	for (let i = 0; i <= runs; i++) {
		const round = {};
		for (const k of rotation(i, names.length)) {
			settle();
			await ctl(control, 'peppol', 'clear');
			round[names[k]] = await variants[names[k]]();
			round[names[k]].requests = await count();
		}
		if (i > 0) rounds.push(round);
	}
	return { rounds, httpVersion };
});
