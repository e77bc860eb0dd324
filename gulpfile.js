const fs = require('fs');
const path = require('path');
const { task, src, dest, parallel } = require('gulp');

// A build starts from an empty dist/, so a file removed from the source leaves no stale copy behind.
task('clean', (done) => {
	fs.rmSync(path.resolve('dist'), { recursive: true, force: true });
	done();
});

// Icons are referenced from node and credential files as "file:../../icons/...";
// codex JSON files sit next to each node file.
function copyIcons() {
	return src('icons/**/*.{png,svg}', { encoding: false }).pipe(dest(path.resolve('dist', 'icons')));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest(path.resolve('dist', 'nodes')));
}

task('build:icons', parallel(copyIcons, copyCodex));
