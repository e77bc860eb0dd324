'use strict';
/** Memory peaks for the bench cases (memory.js, files.js). */

/** What a case allocates, wherever it lives: the JS heap plus Buffers and other external memory. */
const level = (m) => m.heapUsed + m.external;

/** Peak tracker over process.memoryUsage(), sampled every millisecond while on. */
function sampler(base) {
	const peak = { level: level(base), heap: base.heapUsed, rss: base.rss };
	let on = false;
	const sample = () => {
		if (!on) return;
		const m = process.memoryUsage();
		if (level(m) > peak.level) peak.level = level(m);
		if (m.heapUsed > peak.heap) peak.heap = m.heapUsed;
		if (m.rss > peak.rss) peak.rss = m.rss;
	};
	const timer = setInterval(sample, 1);
	return {
		peak,
		start: () => {
			on = true;
		},
		stop: () => {
			sample();
			on = false;
			clearInterval(timer);
		},
	};
}

module.exports = { level, sampler };
