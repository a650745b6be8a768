/**
 * Digest of the error that a client-only module (one that needs the DOM, like the captcha widget) throws
 * when prerendered: React then ships its Suspense fallback and renders it in the browser, which reports
 * the switch as a recoverable error carrying this digest. It is expected, so it is not reported.
 */
export const CLIENT_ONLY_DIGEST = 'client-only';
