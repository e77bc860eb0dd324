import {
	appendResult,
	checkRedirectUrl,
	DEFAULT_PROVIDER_CODE,
	expiredJson,
	identifiedInRegistration,
	looksLikeCallback,
	outcomeJson,
	providerCode,
	queryFromValue,
	readCallback,
	readProviderUrl,
	RESULT_SOURCE,
	SESSION_WINDOW_MS,
	sessionTimes,
	toRegistrationId,
	withServiceCheck,
} from '../../nodes/Identification/session';
import { classifyStartFailure, startFailureHint } from '../../nodes/Identification/hints';
import { resultPage } from '../../nodes/Identification/actions/waiting';

describe('checkRedirectUrl', () => {
	it('accepts absolute http(s) URLs and keeps query and fragment', () => {
		expect(checkRedirectUrl(' https://app.example.com/done?x=1#top ')).toEqual({ ok: true, value: 'https://app.example.com/done?x=1#top' });
		expect(checkRedirectUrl('http://localhost:5678/webhook-waiting/12?signature=abc')).toEqual({
			ok: true,
			value: 'http://localhost:5678/webhook-waiting/12?signature=abc',
		});
	});
	it.each([
		['', 'is empty'],
		[undefined, 'is empty'],
		['/relative/path', 'is not an absolute URL'],
		['app.example.com/done', 'is not an absolute URL'],
		['ftp://files.example.com/x', 'uses ftp, not http(s)'],
		['javascript:alert(1)', 'uses javascript, not http(s)'],
		['https://exa mple.com', 'contains spaces'],
		['https://user:pw@example.com/', 'contains a user name or password'],
	])('rejects %p (%s)', (value, problem) => {
		const check = checkRedirectUrl(value);
		expect(check.ok).toBe(false);
		if (!check.ok) {
			expect(check.problem).toBe(problem);
			expect(check.hint).toMatch(/\w/);
		}
	});
});

describe('readProviderUrl', () => {
	it('accepts RedirectURL (field table) and URL (sample response)', () => {
		expect(readProviderUrl({ RedirectURL: 'https://idp.example/s/1' })).toBe('https://idp.example/s/1');
		expect(readProviderUrl({ URL: 'https://idp.example/s/2' })).toBe('https://idp.example/s/2');
		expect(readProviderUrl({ url: 'https://idp.example/s/3' })).toBe('https://idp.example/s/3');
		expect(readProviderUrl('"https://idp.example/s/4"')).toBe('https://idp.example/s/4');
	});
	it('prefers a usable URL and ignores non-URLs', () => {
		expect(readProviderUrl({ RedirectURL: '', URL: 'https://idp.example/s/5' })).toBe('https://idp.example/s/5');
		expect(readProviderUrl({ RedirectURL: 'not a url' })).toBeUndefined();
		expect(readProviderUrl({})).toBeUndefined();
		expect(readProviderUrl(null)).toBeUndefined();
		expect(readProviderUrl([{ URL: 'https://x' }])).toBeUndefined();
	});
});

describe('sessionTimes', () => {
	it('closes the window 5 minutes after the POST and waits the margin longer', () => {
		const t0 = Date.UTC(2025, 0, 1, 10, 0, 0);
		const times = sessionTimes(t0, 60);
		expect(times.startedAt).toBe('2025-01-01T10:00:00.000Z');
		expect(times.expiresAt).toBe('2025-01-01T10:05:00.000Z');
		expect(times.waitTill.toISOString()).toBe('2025-01-01T10:06:00.000Z');
		expect(Date.parse(times.expiresAt) - t0).toBe(SESSION_WINDOW_MS);
	});
	it('clamps the margin', () => {
		const t0 = Date.UTC(2025, 0, 1);
		expect(sessionTimes(t0, -5).waitTill.getTime()).toBe(t0 + SESSION_WINDOW_MS);
		expect(sessionTimes(t0, 10 ** 9).waitTill.getTime()).toBe(t0 + SESSION_WINDOW_MS + 3600 * 1000);
	});
});

describe('providerCode', () => {
	it('uses the chosen provider, or the custom code', () => {
		expect(providerCode(DEFAULT_PROVIDER_CODE, '')).toEqual({ ok: true, value: 'itsme' });
		expect(providerCode('custom', ' newidp ')).toEqual({ ok: true, value: 'newidp' });
		expect(providerCode('custom', '').ok).toBe(false);
		expect(providerCode('custom', 'two words').ok).toBe(false);
	});
});

describe('appendResult', () => {
	it('appends like the service does, keeping query and fragment', () => {
		expect(appendResult('https://a.test/done', 7, true)).toBe('https://a.test/done?registrationID=7&success=true');
		expect(appendResult('https://a.test/done?x=1#f', '7', false)).toBe('https://a.test/done?x=1&registrationID=7&success=false#f');
		expect(appendResult('https://a.test/done?', undefined, false)).toBe('https://a.test/done?success=false');
	});
});

describe('readCallback', () => {
	it('success=true with the expected registration is identified', () => {
		const outcome = readCallback({ registrationID: '42', success: 'true' }, '42');
		expect(outcome).toMatchObject({ identified: true, reason: 'identified', registrationID: 42 });
		expect(outcome.reported).toEqual({ registrationID: '42', success: 'true' });
	});
	it('reads parameter names case-insensitively and TRUE/False', () => {
		expect(readCallback({ RegistrationId: '42', SUCCESS: 'TRUE' }, 42).identified).toBe(true);
		expect(readCallback({ registrationID: '42', success: 'False' }, 42)).toMatchObject({ identified: false, reason: 'failed' });
	});
	it('success=false is a failure', () => {
		expect(readCallback({ registrationID: '42', success: 'false' }, '42')).toMatchObject({
			identified: false,
			reason: 'failed',
			registrationID: 42,
		});
	});
	it('error=invalid_redirect from the provider error page', () => {
		expect(readCallback({ error: 'invalid_redirect' }, '42')).toMatchObject({
			identified: false,
			reason: 'invalid_redirect',
			registrationID: 42,
		});
		expect(readCallback({ error: 'access_denied', success: 'true', registrationID: '42' }, '42')).toMatchObject({
			identified: false,
			reason: 'provider_error',
		});
	});
	it('never accepts a callback for another registration', () => {
		expect(readCallback({ registrationID: '43', success: 'true' }, '42')).toMatchObject({
			identified: false,
			reason: 'registration_mismatch',
			registrationID: 43,
		});
	});
	it('never accepts missing, odd or conflicting values', () => {
		expect(readCallback({ registrationID: '42' }, '42').reason).toBe('invalid_callback');
		expect(readCallback({ registrationID: '42', success: 'yes' }, '42').reason).toBe('invalid_callback');
		expect(readCallback({ registrationID: '42', success: ['false', 'true'] }, '42').reason).toBe('invalid_callback');
		expect(readCallback({ registrationID: ['42', '43'], success: 'true' }, '42').reason).toBe('invalid_callback');
		expect(readCallback({ success: 'true' }, '42').reason).toBe('invalid_callback');
		expect(readCallback({ success: { nested: 'true' }, registrationID: '42' }, '42').reason).toBe('invalid_callback');
		expect(readCallback(undefined, '42').reason).toBe('invalid_callback');
		for (const q of [{ registrationID: '42' }, { success: 'true' }, {}, { success: ['true', 'false'], registrationID: '42' }]) {
			expect(readCallback(q, '42').identified).toBe(false);
		}
	});
	it('repeated identical values are not ambiguous', () => {
		expect(readCallback({ registrationID: ['42', '42'], success: ['true', 'true'] }, '42').identified).toBe(true);
	});
	it('without an expected registration, success=true needs a registrationID', () => {
		expect(readCallback({ registrationID: '9', success: 'true' }).identified).toBe(true);
		expect(readCallback({ success: 'true' }).identified).toBe(false);
	});
});

describe('items', () => {
	it('success always equals identified, so $json.success cannot mislead', () => {
		for (const q of [
			{ registrationID: '42', success: 'true' },
			{ registrationID: '43', success: 'true' },
			{ registrationID: '42', success: 'false' },
			{ error: 'invalid_redirect' },
			{ success: 'true' },
		]) {
			const json = outcomeJson(readCallback(q, 42));
			expect(json.success).toBe(json.identified);
		}
	});
	it('the expired item says so and is not a success', () => {
		const json = expiredJson(42, '2025-01-01T10:00:00.000Z', '2025-01-01T10:05:00.000Z');
		expect(json).toMatchObject({ identified: false, success: false, reason: 'expired', RegistrationID: 42 });
	});
	it('registration IDs become numbers when they are numbers', () => {
		expect(toRegistrationId('00123')).toBe(123);
		expect(toRegistrationId(' 7 ')).toBe(7);
		expect(toRegistrationId('abc')).toBe('abc');
		expect(toRegistrationId('')).toBeUndefined();
		expect(toRegistrationId('99999999999999999999')).toBe('99999999999999999999');
	});
});

describe('queryFromValue', () => {
	it('takes objects, JSON, full URLs and query strings', () => {
		expect(queryFromValue({ success: 'true' })).toEqual({ success: 'true' });
		expect(queryFromValue('{"success":"false","registrationID":"5"}')).toEqual({ success: 'false', registrationID: '5' });
		expect(queryFromValue('https://app.test/cb?x=1&registrationID=5&success=true#frag')).toEqual({
			x: '1',
			registrationID: '5',
			success: 'true',
		});
		expect(queryFromValue('registrationID=5&success=true')).toEqual({ registrationID: '5', success: 'true' });
		expect(queryFromValue('?success=true&success=false')).toEqual({ success: ['true', 'false'] });
	});
	it('returns undefined when there is nothing', () => {
		expect(queryFromValue('')).toBeUndefined();
		expect(queryFromValue(42)).toBeUndefined();
		expect(queryFromValue('{bad json')).toBeUndefined();
	});
	it('tells callback data from other data', () => {
		expect(looksLikeCallback({ success: 'true' })).toBe(true);
		expect(looksLikeCallback({ Error: 'invalid_redirect' })).toBe(true);
		expect(looksLikeCallback({ name: 'x' })).toBe(false);
		expect(looksLikeCallback(undefined)).toBe(false);
	});
});

describe('start failure hints', () => {
	const context = { partyId: '100001', registrationId: '42' };
	it('TooManyTrials: the sandbox limit of 5 attempts', () => {
		expect(classifyStartFailure({ status: 400, code: 'TooManyTrials', text: 'Too many attempts' })).toBe('tooManyTrials');
		expect(startFailureHint({ status: 400, code: 'TooManyTrials' }, context)).toMatch(/5 identification attempts.*registration 42/);
	});
	it('not whitelisted: ask support quoting the PartyID', () => {
		expect(classifyStartFailure({ status: 403, code: 'Forbidden' })).toBe('notWhitelisted');
		expect(classifyStartFailure({ status: 401, text: 'PartyID 5 is not whitelisted for identification' })).toBe('notWhitelisted');
		const hint = startFailureHint({ status: 403 }, context) ?? '';
		expect(hint).toMatch(/not whitelisted/);
		expect(hint).toMatch(/support/);
		expect(hint).toContain('PartyID 100001');
	});
	it('401/404: not registered or not active, or registration skipped', () => {
		expect(classifyStartFailure({ status: 404 })).toBe('notRegistered');
		expect(startFailureHint({ status: 404 }, context)).toMatch(/not registered or not active.*registration step was skipped/);
		expect(classifyStartFailure({ status: 401, text: 'Registration 42 does not belong to this account' })).toBe('unauthorized');
		expect(startFailureHint({ status: 401 }, context)).toMatch(/not registered or not active.*PartyID 100001/);
	});
	it('keeps the transport hint for anything else', () => {
		expect(startFailureHint({ status: 500 }, context)).toBeUndefined();
		expect(startFailureHint({ status: 400, text: 'Something else' }, context)).toBeUndefined();
		expect(classifyStartFailure({ status: 400, text: 'RedirectURL is required and must be an absolute http(s) URL' })).toBe('redirectRejected');
		expect(classifyStartFailure({ status: 400, text: "Unknown IdentificationProviderTC 'x'" })).toBe('providerCode');
	});
});

describe('result page', () => {
	it('is small, unbranded and says what happened', () => {
		expect(resultPage('identified')).toContain('Identity confirmed');
		expect(resultPage('failed')).toContain('Identity not confirmed');
		expect(resultPage('registration_mismatch')).toContain('Identity not confirmed');
		expect(resultPage('expired')).toContain('expired');
		expect(resultPage('identified').length).toBeLessThan(2000);
		expect(resultPage('identified')).not.toMatch(/<script|https?:\/\//i);
	});
});

describe("result provenance: the browser's word, checked where the registration read shows it", () => {
	const success = () => readCallback({ registrationID: '42', success: 'true' }, 42);

	it.each<[string, unknown, boolean | undefined]>([
		['Identified true', { RegistrationID: 42, Identified: true }, true],
		['Identified false', { RegistrationID: 42, Identified: false }, false],
		['IsIdentified as text', { RegistrationID: 42, IsIdentified: 'false' }, false],
		['IdentificationStatus in CompanyDetails', { CompanyDetails: { IdentificationStatus: 'Verified' } }, true],
		['KYCStatus pending', { KYCStatus: 'Pending' }, false],
		['the published read: no status at all', { RegistrationID: 42, CompanyDetails: { CompanyName: 'Acme' }, Integrations: [] }, undefined],
		['an unreadable status word', { IdentificationStatus: 'maybe' }, undefined],
		['no object', 'OK', undefined],
	])('%s', (_label, registration, expected) => {
		expect(identifiedInRegistration(registration)).toBe(expected);
	});

	it('every outcome names its source; unchecked by default', () => {
		expect(RESULT_SOURCE).toBe('browser redirect');
		expect(outcomeJson(success())).toMatchObject({ identified: true, resultSource: 'browser redirect', serviceCheck: 'not checked' });
		expect(outcomeJson(readCallback({ registrationID: '42', success: 'false' }, 42))).toMatchObject({ identified: false, resultSource: 'browser redirect' });
	});

	it('a success the read contradicts becomes not identified; the others keep it and say whose word it is', () => {
		expect(withServiceCheck(success(), 'contradicted')).toMatchObject({ identified: false, reason: 'not_confirmed', serviceCheck: 'contradicted' });
		expect(withServiceCheck(success(), 'confirmed')).toMatchObject({ identified: true, reason: 'identified', serviceCheck: 'confirmed' });
		for (const check of ['not shown', 'not checked', 'read failed'] as const) {
			const outcome = withServiceCheck(success(), check, 'HTTP 503');
			expect(outcome).toMatchObject({ identified: true, serviceCheck: check });
			expect(outcome.message).toMatch(/browser's word/);
		}
		expect(withServiceCheck(success(), 'read failed', 'HTTP 503').message).toContain('(HTTP 503)');
	});

	it('a failure needs no check: it stays as it is, marked not checked', () => {
		const failed = readCallback({ registrationID: '42', success: 'false' }, 42);
		expect(withServiceCheck(failed, 'contradicted')).toEqual({ ...failed, serviceCheck: 'not checked' });
	});
});
