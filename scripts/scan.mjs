// Runs the ESLint legs of n8n's verification scanner (@n8n/scan-community-package)
// locally: once on the source files it lints, once on the unpacked npm tarball.
// The provenance and download legs need the npm registry's published package and
// are skipped here. Exit code 1 on any finding.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let failed = false;

function report(label, result) {
	if (result.passed) {
		console.log(`scan ${label}: passed${result.message ? ` (${result.message})` : ''}`);
	} else {
		failed = true;
		console.log(`scan ${label}: FAILED: ${result.message}\n${result.details ?? ''}`);
	}
}

report('source', await analyzePackage(root, SOURCE_FILE_PATTERNS));

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ap-scan-'));
try {
	const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
	const tarball = path.join(work, out.trim().split('\n').pop());
	const unpacked = path.join(work, 'package');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
	const unexpected = files.filter((f) => !/^package\/(dist\/|README\.md$|LICENSE$|package\.json$)/.test(f));
	if (unexpected.length) {
		failed = true;
		console.log(`tarball contains files outside dist/README/LICENSE/package.json: ${unexpected.join(', ')}`);
	}
	console.log(`tarball: ${files.length} files, ${(fs.statSync(tarball).size / 1024).toFixed(1)} kB`);
	report('tarball', await analyzePackage(unpacked));
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
