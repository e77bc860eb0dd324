/**
 * Type probes of the harness, checked by the type-check step only (`npx tsc -p tsconfig.test.json`,
 * ".ci/run" "type-check tests"; jest does not run this file): each @ts-expect-error makes tsc fail
 * when the type it probes decays to `any` (the directive is then unused). types.test.ts checks at
 * run time that this file is in that step and still holds its probes.
 */
import type { Harness, HarnessResult, Poller, WorkflowJson } from './index';

/** Never called. */
const is = <T>(value: T): T => value;
export async function typeProbes(h: Harness, r: HarnessResult, w: WorkflowJson, p: Poller): Promise<void> {
	// @ts-expect-error runNode's result names the node under test (a string)
	is<number>((await h.runNode('accessPointOrder')).nodeName);
	// @ts-expect-error output<T>() returns T[]
	is<string>(r.output<{ n: number }>('node')[0].n);
	// @ts-expect-error run() takes n8n's execute modes
	await h.run(w, { mode: 'bogus' });
	// @ts-expect-error createHarness() knows its options
	await import('./index').then((m) => m.createHarness({ bogus: true }));
	// @ts-expect-error the credential's apiKey is a string
	is<number>(h.credentials.apiKey);
	// @ts-expect-error resume() answers with the HTTP status as a number
	is<string>((await h.resume(r)).response.status);
	// @ts-expect-error a poll's items are json objects (or null)
	is<number>((await p.poll()).items);
	// @ts-expect-error URLs are strings
	is<number>(h.urls.webhookWaitingBaseUrl);
	// @ts-expect-error expandType() returns the full type name
	is<number>(h.nodeTypes.expandType('set'));
	// @ts-expect-error checkResumeUrl() takes a URL
	h.checkResumeUrl(5);
	// The emulator is typed by emulator/index.js, not here.
	is<unknown>(h.emulator);
}
