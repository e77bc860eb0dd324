'use strict';
/**
 * Plain-JS side of the release tests (JS is not linted by the node rules, so files, child
 * processes and the TypeScript compiler are reached here): the workflows and the release
 * guard (scripts/check-workflows.js, scripts/release-guard.js), README.md and CHANGELOG.md,
 * the credentials package.json lists, and the deprecated n8n APIs the sources use.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const yaml = require('js-yaml');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');

/** @param {string} file repo-relative @returns {string | undefined} */
function readText(file) {
	const full = path.join(ROOT, file);
	return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : undefined;
}

/** Whether a repo-relative file or folder exists. @param {string} file @returns {boolean} */
function exists(file) {
	return fs.existsSync(path.join(ROOT, file));
}

/** @returns {any} */
function packageJson() {
	return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
}

/** A workflow file as text. @param {string} name e.g. publish.yml */
function workflowText(name) {
	return fs.readFileSync(path.join(WORKFLOWS, name), 'utf8');
}

/** What check-workflows.js gets for a YAML text: the document, or the parse error. @param {string} text */
function parseYaml(text) {
	try {
		return { doc: yaml.load(text) };
	} catch (error) {
		return { error: error.message };
	}
}

/**
 * Runs one of scripts/ as CI does.
 * @param {string} script file name in scripts/ @param {string[]} args @param {Record<string, string>} env added to PATH only
 * @returns {{ status: number | null, stdout: string }}
 */
function runScript(script, args = [], env = {}) {
	const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', script), ...args], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { PATH: process.env.PATH ?? '', ...env },
	});
	return { status: result.status, stdout: result.stdout };
}

/** @param {string} text */
function print(text) {
	process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * The credentials package.json's "n8n" section lists, loaded from their TypeScript sources.
 * @returns {Array<{ file: string, credential: import('n8n-workflow').ICredentialType }>}
 */
function loadPackageCredentials() {
	return packageJson().n8n.credentials.map((distFile) => {
		const exported = require(path.join(ROOT, distFile.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
		const classes = Object.values(exported).filter((value) => typeof value === 'function');
		if (classes.length !== 1) throw new Error(`${distFile}: expected one credential class, found ${classes.length}`);
		return { file: distFile, credential: new classes[0]() };
	});
}

/**
 * Every use of an n8n-workflow (or other) API marked @deprecated in the given sources, as the
 * TypeScript language service reports it (the strike-through in an editor).
 * @param {string[]} dirs repo-relative folders of .ts files, e.g. ['nodes', 'credentials']
 * @returns {string[]} "file:line message"
 */
function deprecatedUses(dirs) {
	const ts = require('typescript');
	const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
	const files = dirs.flatMap((dir) =>
		fs
			.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.ts'))
			.map((file) => path.join(ROOT, dir, file)),
	);
	/** @type {import('typescript').LanguageServiceHost} */
	const host = {
		getScriptFileNames: () => files,
		getScriptVersion: () => '1',
		getScriptSnapshot: (file) => (fs.existsSync(file) ? ts.ScriptSnapshot.fromString(fs.readFileSync(file, 'utf8')) : undefined),
		getCurrentDirectory: () => ROOT,
		getCompilationSettings: () => config.options,
		getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
		fileExists: ts.sys.fileExists,
		readFile: ts.sys.readFile,
		readDirectory: ts.sys.readDirectory,
		directoryExists: ts.sys.directoryExists,
		getDirectories: ts.sys.getDirectories,
	};
	const service = ts.createLanguageService(host, ts.createDocumentRegistry());
	const found = [];
	for (const file of files) {
		for (const diagnostic of service.getSuggestionDiagnostics(file)) {
			if (!diagnostic.reportsDeprecated || !diagnostic.file || diagnostic.start === undefined) continue;
			const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
			found.push(`${path.relative(ROOT, file)}:${line + 1} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
		}
	}
	return found;
}

module.exports = { ROOT, WORKFLOWS, readText, exists, packageJson, workflowText, parseYaml, runScript, print, loadPackageCredentials, deprecatedUses };
