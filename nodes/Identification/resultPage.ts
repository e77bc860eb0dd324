/**
 * The small, unbranded page the user's browser sees when it comes back to a
 * waiting execution. No value from the request is echoed, so nothing can be injected.
 */
import type { Reason } from './callback';

type PageKind = 'identified' | 'notIdentified' | 'expired' | 'invalidRedirect' | 'noLink';

const TEXT: Record<PageKind, { title: string; body: string }> = {
	identified: { title: 'Identity confirmed', body: 'Thank you. Your identity has been confirmed. You can close this window.' },
	notIdentified: {
		title: 'Identity not confirmed',
		body: 'Your identity could not be confirmed. Please start again from the link or page you were given. You can close this window.',
	},
	expired: { title: 'Link expired', body: 'This identification link has expired. Please start again from the link or page you were given.' },
	invalidRedirect: { title: 'Identity not confirmed', body: 'The identity check could not return to this page. Please contact the sender of your link.' },
	noLink: {
		title: 'Open your identification link',
		body: 'This address only receives the result of an identity check. Open the identification link you were sent to start it.',
	},
};

const KIND: Partial<Record<Reason, PageKind>> = { identified: 'identified', expired: 'expired', invalid_redirect: 'invalidRedirect' };

export const resultPage = (reason: Reason): string => page(KIND[reason] ?? 'notIdentified');

/** The page of a visit to the resume URL that carries no result and cannot be sent on to the provider. */
export const noticePage = (kind: 'expired' | 'noLink'): string => page(kind);

function page(kind: PageKind): string {
	const { title, body } = TEXT[kind];
	return [
		'<!DOCTYPE html>',
		'<html lang="en"><head><meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		'<meta name="robots" content="noindex, nofollow">',
		'<meta name="referrer" content="no-referrer">',
		`<title>${title}</title>`,
		'<style>body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;background:#f6f7f9;color:#1f2328}main{max-width:28rem;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12);text-align:center}h1{font-size:1.4rem;margin:0 0 .75rem}p{margin:0;line-height:1.5}</style>',
		'</head><body><main>',
		`<h1 id="title">${title}</h1>`,
		`<p id="result" data-outcome="${kind}">${body}</p>`,
		'</main></body></html>',
	].join('');
}
