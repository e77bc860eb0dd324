/**
 * One icon per node (issue 24 point 7): on the canvas the nodes differ by more than their
 * names. Each node points at its own light and dark SVG in icons/; all are clean 60x60
 * drawings (no script, no external reference, no font), which n8n serves from dist/icons.
 */
import type { Icon } from 'n8n-workflow';

import { AccessPointApi } from '../../credentials/AccessPointApi.credentials';
import { iconFiles, loadPackageNodes, printFigures, readIcon } from './packageNodes';

function refs(icon: Icon | undefined): { light: string; dark: string } {
	if (!icon || typeof icon === 'string') throw new Error(`expected a light/dark icon pair, got ${JSON.stringify(icon)}`);
	return icon as { light: string; dark: string };
}

function checkSvg(text: string): string[] {
	const problems: string[] = [];
	if (!/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 60 60"/.test(text)) problems.push('not a 60x60 SVG');
	if (/<script|on[a-z]+=|<foreignObject|<image|<text|font-family|@import|<style/i.test(text)) problems.push('script, image, text or style');
	if (/(?:href|src)=|url\(/i.test(text)) problems.push('external reference');
	return problems;
}

const nodes = loadPackageNodes().map((n) => ({
	name: n.description.name,
	dir: n.file.replace(/^dist\//, '').replace(/\/[^/]+$/, ''),
	icon: refs(n.description.icon as Icon),
}));

describe('one icon per node', () => {
	it.each(nodes.map((n) => [n.name, n]))('%s has its own light and dark SVG, clean and 60x60', (_name, n) => {
		for (const variant of ['light', 'dark'] as const) {
			const icon = readIcon(n.icon[variant], n.dir);
			expect(icon).toMatchObject({ exists: true });
			expect(icon.file).toBe(`icons/${n.name}${variant === 'dark' ? '.dark' : ''}.svg`);
			expect(checkSvg(icon.text)).toEqual([]);
		}
		expect(readIcon(n.icon.light, n.dir).text).not.toBe(readIcon(n.icon.dark, n.dir).text);
	});

	it("no two nodes share an icon, and none uses the credential's base mark", () => {
		const credential = refs(new AccessPointApi().icon);
		const base = readIcon(credential.light, 'credentials');
		expect(base.exists).toBe(true);
		expect(checkSvg(base.text)).toEqual([]);
		const drawings = nodes.map((n) => readIcon(n.icon.light, n.dir).text);
		expect(new Set([...drawings, base.text]).size).toBe(nodes.length + 1);
		printFigures(
			`${nodes.length} node icons + the credential's, light and dark`,
			nodes.map((n) => `${n.name}: ${n.icon.light}`),
		);
	});

	it("every SVG in icons/ is clean, has a dark twin, and the webhook trigger's icon is ready", () => {
		const files = iconFiles();
		expect(files).toEqual(expect.arrayContaining(['accessPointTrigger.svg', 'accessPointTrigger.dark.svg']));
		for (const file of files.filter((f) => f.endsWith('.svg'))) {
			expect([file, checkSvg(readIcon(`file:${file}`, 'icons').text)]).toEqual([file, []]);
			const twin = file.endsWith('.dark.svg') ? file.replace('.dark.svg', '.svg') : file.replace('.svg', '.dark.svg');
			expect(files).toContain(twin);
		}
	});
});
