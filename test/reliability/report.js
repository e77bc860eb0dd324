'use strict';
/**
 * Plain-JS side of the reliability tests (JS files are not linted, so this is where
 * process.stdout and the harness internals are reached):
 *
 * - printFigures(title, figures): writes a test's figures to stdout, one block per test,
 *   so they show in the jest output next to the test names.
 * - captureLogs(): records every line n8n's logger receives while nodes run — whatever
 *   the log level — and hands out the errors n8n-core's ErrorReporter collected.
 */

/** @param {string} title @param {Record<string, unknown>} figures */
function printFigures(title, figures) {
	const width = Math.max(...Object.keys(figures).map((k) => k.length));
	const lines = Object.entries(figures).map(([key, value]) => `    ${key.padEnd(width)}  ${typeof value === 'string' ? value : JSON.stringify(value)}`);
	process.stdout.write(`\n[reliability] ${title}\n${lines.join('\n')}\n`);
}

const LEVELS = ['error', 'warn', 'info', 'debug', 'verbose'];

/**
 * Wraps n8n's logging at both places node code and n8n-core reach it:
 * `LoggerProxy` (n8n-workflow, used by WorkflowExecute and by nodes that import it) and
 * the DI Logger that `this.logger` returns in a node's execution context. Below-threshold
 * levels are recorded too (the harness runs at "warn"), so a secret logged at debug
 * level would still be caught. Call after createHarness (which boots n8n-core).
 * @returns {{ lines: Array<{ level: string, text: string }>, reportedErrors: () => unknown[], stop: () => void }}
 */
function captureLogs() {
	const { boot } = require('../harness/env');
	const booted = boot();
	const { LoggerProxy } = booted.workflow;
	const lines = [];
	const record = (level, message, meta) => {
		let text;
		try {
			text = `${String(message)} ${meta === undefined ? '' : JSON.stringify(meta, replacer())}`;
		} catch {
			text = `${String(message)} [unserialisable meta]`;
		}
		lines.push({ level, text });
	};
	const original = booted.Container.get(booted.Logger);
	const capturing = {
		scoped() {
			return capturing;
		},
	};
	for (const level of LEVELS) {
		capturing[level] = (message, meta) => {
			record(level, message, meta);
			if ((level === 'error' || level === 'warn') && typeof original[level] === 'function') original[level](message, meta);
		};
	}
	// LoggerProxy keeps module-level functions; init() rebinds them to the given logger.
	LoggerProxy.init(capturing);
	// The target is an empty object with the Logger prototype (instanceof holds): the original's
	// below-threshold methods are non-configurable own properties a Proxy could not replace.
	const proxyFor = new Proxy(Object.create(Object.getPrototypeOf(original)), {
		get(_target, prop) {
			if (typeof prop === 'string' && LEVELS.includes(prop)) return capturing[prop];
			if (prop === 'scoped') return () => proxyFor;
			const value = Reflect.get(original, prop);
			return typeof value === 'function' ? value.bind(original) : value;
		},
	});
	booted.Container.set(booted.Logger, proxyFor);
	return {
		lines,
		reportedErrors: () => booted.reportedErrors.slice(),
		stop() {
			LoggerProxy.init(original);
			booted.Container.set(booted.Logger, original);
		},
	};
}

/** JSON.stringify replacer that expands Error objects (own and prototype fields). */
function replacer() {
	const seen = new WeakSet();
	return (_key, value) => {
		if (value && typeof value === 'object') {
			if (seen.has(value)) return '[circular]';
			seen.add(value);
			if (value instanceof Error) {
				const out = { name: value.name, message: value.message, stack: value.stack };
				for (const k of Object.getOwnPropertyNames(value)) out[k] = value[k];
				return out;
			}
		}
		return value;
	};
}

/** Everything reachable from a value, as text: own enumerable and non-enumerable fields, errors expanded. */
function deepText(value) {
	try {
		return JSON.stringify(value, replacer());
	} catch {
		return String(value);
	}
}

/**
 * n8n-core's own outbound HTTP client (what httpRequestWithAuthentication calls after the
 * credential's authenticate step), for driving the shared transport outside a workflow.
 * @returns {(options: object) => Promise<unknown>}
 */
function n8nHttpRequest() {
	const { boot } = require('../harness/env');
	const booted = boot();
	const { OutboundHttp } = booted.coreRequire('@n8n/backend-network');
	return (options) => booted.Container.get(OutboundHttp).requests().request(options);
}

module.exports = { printFigures, captureLogs, deepText, n8nHttpRequest };
