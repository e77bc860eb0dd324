#!/usr/bin/env node
'use strict';
/**
 * Build step after `tsc` (npm run build): folds the CommonJS modules tsc wrote to
 * dist/nodes and dist/credentials into dist/package.js, and turns each node and
 * credential file that package.json lists into a two-line stub that loads its
 * class from it.
 *
 * Why: n8n requires every listed file when it loads the package (bench 5a). As
 * ~70 small modules that meant ~70 path resolutions, file reads and module
 * wrappers on every start, and every module was compiled and run although most
 * of the code only matters once a node executes.
 *
 * How:
 * - Every module keeps its own scope (a function of exports/module) and is run
 *   the first time it is needed. Its relative `require("./x")` calls are resolved
 *   here, at build time, to the module's key. `require("n8n-workflow")` stays a
 *   real require: n8n's own copy must be the one the nodes use (error classes).
 * - Load set: the modules n8n needs to list the package (each class constructed
 *   and its description serialised, as n8n does) are found by doing exactly that
 *   on a bundle whose imports are all lazy. Those modules are wrapped in
 *   parentheses, which makes V8 compile them with the file instead of pre-parsing
 *   them once and parsing them again on first call.
 * - An import of a module outside the load set (HTTP client, validation, paging,
 *   ...) becomes a lazy namespace: an object with one getter per export that
 *   runs the module on first use. tsc reads imports as `x_1.name` at the point
 *   of use, so the module runs when a node first executes, not at start. Those
 *   modules go to dist/package.exec.js, which is read only then.
 * - No code is evaluated from strings; both files are plain JavaScript the n8n
 *   scanner reads, and the only bare require is n8n-workflow.
 * - An import becomes lazy only where that is checked to be safe: every `x_1.name`
 *   read of it names an export of the module, and it has the shape tsc gives named
 *   and namespace imports. Anything else stays a plain load (with a warning).
 * - Checks before dist/ is changed: each listed class serialises the same from
 *   the bundle as from tsc's modules; loading them runs exactly the load set;
 *   every module runs.
 *
 * Usage: node scripts/bundle.js [distDir]   (default: ./dist)
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const BUNDLE = 'package.js';
const EXEC_BUNDLE = 'package.exec.js';
const SOURCE_DIRS = ['nodes', 'credentials'];
const WORKFLOW = 'n8n-workflow';

function listJs(dir) {
	if (!fs.existsSync(dir)) return [];
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...listJs(full));
		else if (entry.name.endsWith('.js')) out.push(full);
	}
	return out;
}

/** The module key (path under dist, forward slashes) a relative require names, or undefined if it is not ours. */
function resolveKey(fromKey, request, keys) {
	if (!request.startsWith('.')) return undefined;
	const base = path.posix.join(path.posix.dirname(fromKey), request);
	for (const candidate of [base, `${base}.js`, `${base}/index.js`]) if (keys.has(candidate)) return candidate;
	throw new Error(`bundle: ${fromKey} requires ${request}, which is not a module in dist/`);
}

// Placeholder for a resolved relative require in a module's code until the edge kind is known.
const EDGE = /__BUNDLE_EDGE\("([^"]+)"\)/g;

/** Reads tsc's modules: key -> { code with placeholders, deps }. */
function readModules(distDir) {
	const files = SOURCE_DIRS.flatMap((d) => listJs(path.join(distDir, d))).sort();
	if (!files.length) throw new Error(`bundle: no compiled modules under ${distDir} (run tsc first)`);
	const keyOf = (file) => path.relative(distDir, file).split(path.sep).join('/');
	const keys = new Set(files.map(keyOf));
	const modules = new Map();
	for (const file of files) {
		const key = keyOf(file);
		let code = fs.readFileSync(file, 'utf8');
		code = code.replace(/^\s*\/\/# sourceMappingURL=.*$/m, '');
		const deps = new Set();
		// tsc writes require("..."); only our relative ones are rewritten.
		code = code.replace(/\brequire\((["'])([^"']+)\1\)/g, (whole, _q, request) => {
			const target = resolveKey(key, request, keys);
			if (target === undefined) {
				if (request !== WORKFLOW) throw new Error(`bundle: ${key} requires ${request}; only ${WORKFLOW} and own files may be imported`);
				return whole;
			}
			deps.add(target);
			return `__BUNDLE_EDGE(${JSON.stringify(target)})`;
		});
		modules.set(key, { file, code: code.trim(), deps });
	}
	return modules;
}

const RUNTIME = [
	'function __load(key) {',
	'\tconst done = __loaded[key];',
	'\tif (done) return done.exports;',
	'\tconst module = { exports: {} };',
	'\t__loaded[key] = module;',
	'\tlet ran = false;',
	'\ttry {',
	'\t\t(__modules[key] || __execModules()[key]).call(module.exports, module.exports, module);',
	'\t\tran = true;',
	'\t} finally {',
	'\t\t// As require() does: a module that threw is run again next time, not half-loaded.',
	'\t\tif (!ran) delete __loaded[key];',
	'\t}',
	'\treturn module.exports;',
	'}',
	'/** A module outside the load set as its importers see it: one getter per export, the module runs on first read. */',
	'function __lazy(key) {',
	'\tconst known = __namespaces[key];',
	'\tif (known) return known;',
	'\tconst ns = {};',
	'\tlet target;',
	"\tObject.defineProperty(ns, '__esModule', { value: true });",
	'\tfor (const name of __exportNames[key]) {',
	'\t\tObject.defineProperty(ns, name, { enumerable: true, get: () => (target || (target = __load(key)))[name] });',
	'\t}',
	'\t__namespaces[key] = ns;',
	'\treturn ns;',
	'}',
];

/**
 * Source of the bundle file(s).
 * lazy: set of keys whose imports become lazy namespaces (all others are plain loads).
 * loadSet: keys compiled eagerly in package.js; the rest go to package.exec.js. Without it, one file, nothing eager.
 */
function emit(modules, { lazy, names, loadSet }) {
	const wrap = (key, eager) => {
		const code = modules.get(key).code.replace(EDGE, (_w, target) => (lazy.has(target) ? `__lazy(${JSON.stringify(target)})` : `__load(${JSON.stringify(target)})`));
		const fn = `function (exports, module) {\n${code}\n}`;
		return `${JSON.stringify(key)}: ${eager ? `(${fn})` : fn}`;
	};
	const keys = [...modules.keys()];
	const main = loadSet ? keys.filter((k) => loadSet.has(k)) : keys;
	const exec = loadSet ? keys.filter((k) => !loadSet.has(k)) : [];
	const lazyNames = {};
	for (const key of [...lazy].sort()) lazyNames[key] = names.get(key);
	const header = '// Generated by scripts/bundle.js from the modules tsc compiled; see that script.';
	const packageJs = [
		'"use strict";',
		header,
		'const __modules = {',
		main.map((k) => wrap(k, Boolean(loadSet))).join(',\n'),
		'};',
		'const __loaded = {};',
		'const __namespaces = {};',
		`const __exportNames = ${JSON.stringify(lazyNames)};`,
		exec.length
			? [
					'/** The modules only executing nodes need, read on first use. */',
					'let __exec;',
					'function __execModules() {',
					`\treturn __exec || (__exec = require(${JSON.stringify(`./${EXEC_BUNDLE}`)}).modules(__load, __lazy));`,
					'}',
				].join('\n')
			: 'function __execModules() {\n\treturn {};\n}',
		...RUNTIME,
		'exports.load = __load;',
		'/** Keys of the modules run so far (bench 5a counts them). */',
		'exports.loaded = () => Object.keys(__loaded);',
		'',
	].join('\n');
	const execJs = exec.length
		? ['"use strict";', header, `// Modules the nodes need once they execute; loaded by ${BUNDLE}.`, 'exports.modules = (__load, __lazy) => ({', exec.map((k) => wrap(k, false)).join(',\n'), '});', ''].join('\n')
		: undefined;
	return { packageJs, execJs, main: main.length, exec: exec.length };
}

/** Writes the bundle file(s) under distDir and requires package.js fresh. */
function install(distDir, out) {
	const mainPath = path.join(distDir, BUNDLE);
	const execPath = path.join(distDir, EXEC_BUNDLE);
	fs.writeFileSync(mainPath, out.packageJs);
	if (out.execJs) fs.writeFileSync(execPath, out.execJs);
	else fs.rmSync(execPath, { force: true });
	delete require.cache[mainPath];
	delete require.cache[execPath];
	return require(mainPath);
}

/** JSON of a listed class's instance, as n8n reads it at start. */
function serialise(load, key) {
	const exported = load(key);
	const name = path.posix.basename(key).split('.')[0];
	if (typeof exported[name] !== 'function') throw new Error(`bundle: ${key} does not export the class ${name}`);
	return JSON.stringify(new exported[name]());
}

/**
 * Modules that must stay plain loads: a lazy namespace only has the exports seen at build
 * time, so every `<binding>.<name>` read of an import must name one of them, and an import in
 * any other shape (re-export, require inside an expression) cannot be checked. Returns
 * target -> why; those imports stay eager (correct, only not deferred).
 */
function eagerOnly(modules, names) {
	const why = new Map();
	const DECLARED = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:__importStar\()?__BUNDLE_EDGE\("([^"]+)"\)\)?;/g;
	for (const [key, { code }] of modules) {
		const reads = code.replace(EDGE, '');
		for (const [, binding, target] of code.matchAll(DECLARED)) {
			const exported = new Set(names.get(target));
			for (const [, name] of reads.matchAll(new RegExp(`(?<![\\w$.])${binding.replace(/\$/g, '\\$')}\\.([A-Za-z_$][\\w$]*)`, 'g'))) {
				if (!exported.has(name)) why.set(target, `${key} reads ${binding}.${name}, not an export of it`);
			}
		}
		for (const [, target] of code.replace(DECLARED, '').matchAll(EDGE)) why.set(target, `${key} imports it in a form this script does not check`);
	}
	return why;
}

const STUB = /^"use strict";\nmodule\.exports = require\("[^"]+"\)\.load\("[^"]+"\);\n$/;

function bundle(distDir = path.join(ROOT, 'dist'), pkg = require(path.join(ROOT, 'package.json'))) {
	const entries = [...(pkg.n8n.credentials || []), ...(pkg.n8n.nodes || [])].map((p) => p.replace(/^dist\//, ''));
	// Run twice on the same tsc output (e.g. by hand after npm run build): nothing to do.
	const stubs = entries.filter((key) => fs.existsSync(path.join(distDir, key)) && STUB.test(fs.readFileSync(path.join(distDir, key), 'utf8')));
	if (stubs.length === entries.length && fs.existsSync(path.join(distDir, BUNDLE))) return { skipped: true };
	if (stubs.length) throw new Error(`bundle: ${stubs.join(', ')} already bundled but not the others; run tsc again first`);
	const modules = readModules(distDir);
	const keys = new Set(modules.keys());
	for (const entry of entries) if (!keys.has(entry)) throw new Error(`bundle: ${entry} (package.json n8n section) was not compiled`);

	// What n8n will see must not change: each listed class as tsc compiled it.
	const before = new Map(entries.map((key) => [key, serialise((k) => require(path.join(distDir, k)), key)]));

	// 1. Export names of every module (an all-eager bundle, every module run once).
	const names = new Map();
	let loaded = install(distDir, emit(modules, { lazy: new Set(), names }));
	for (const key of keys) {
		const exported = loaded.load(key);
		names.set(key, Object.getOwnPropertyNames(exported).filter((n) => n !== '__esModule'));
	}

	// 2. Load set: what constructing and serialising each listed class runs when every import is lazy.
	const eager = eagerOnly(modules, names);
	for (const [target, why] of eager) console.warn(`bundle: ${target} stays a plain import (${why})`);
	const allLazy = new Set([...keys].filter((k) => !entries.includes(k) && !eager.has(k)));
	loaded = install(distDir, emit(modules, { lazy: allLazy, names }));
	for (const key of entries) serialise(loaded.load, key);
	const loadSet = new Set(loaded.loaded());

	// 3. The bundle as shipped: plain loads among load-set modules, lazy namespaces for the rest.
	const lazy = new Set([...keys].filter((k) => !loadSet.has(k) && !eager.has(k)));
	const out = emit(modules, { lazy, names, loadSet });
	loaded = install(distDir, out);
	for (const key of entries) {
		if (serialise(loaded.load, key) !== before.get(key)) throw new Error(`bundle: ${key} differs when loaded from ${BUNDLE}`);
	}
	const ranAtLoad = loaded.loaded();
	if (ranAtLoad.length !== loadSet.size || ranAtLoad.some((k) => !loadSet.has(k))) {
		throw new Error(`bundle: loading the listed classes ran ${ranAtLoad.length} modules, expected the ${loadSet.size} of the load set`);
	}
	for (const key of keys) loaded.load(key);

	// 4. dist/: stubs at the listed paths, tsc's other modules removed.
	const entrySet = new Set(entries);
	for (const [key, { file }] of modules) {
		if (entrySet.has(key)) {
			const rel = path.posix.relative(path.posix.dirname(key), BUNDLE);
			fs.writeFileSync(file, `"use strict";\nmodule.exports = require(${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)}).load(${JSON.stringify(key)});\n`);
		} else {
			fs.rmSync(file);
		}
	}
	// Folders left empty by the removal.
	for (const d of SOURCE_DIRS) removeEmptyDirs(path.join(distDir, d));
	return {
		modules: keys.size,
		atLoad: out.main,
		exec: out.exec,
		entries: entries.length,
		bytes: Buffer.byteLength(out.packageJs),
		execBytes: out.execJs ? Buffer.byteLength(out.execJs) : 0,
	};
}

function removeEmptyDirs(dir) {
	if (!fs.existsSync(dir)) return;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyDirs(path.join(dir, entry.name));
	if (!fs.readdirSync(dir).length) fs.rmdirSync(dir);
}

module.exports = { bundle, readModules, emit };

if (require.main === module) {
	const dist = path.resolve(process.argv[2] || path.join(ROOT, 'dist'));
	const r = bundle(dist);
	const kB = (n) => `${(n / 1024).toFixed(0)} kB`;
	console.log(
		r.skipped
			? `bundle: ${path.relative(process.cwd(), dist) || '.'} is already bundled (run tsc to rebuild)`
			: `bundle: ${r.modules} modules -> ${BUNDLE} (${r.atLoad} run at load, ${kB(r.bytes)}) + ${EXEC_BUNDLE} (${r.exec} run on first execute, ${kB(r.execBytes)}), ${r.entries} entry stubs`,
	);
}
