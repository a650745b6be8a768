import type { CaptchaVerifier } from './types';

const SITEVERIFY_URLS = {
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
} as const;

export type SiteverifyProvider = keyof typeof SITEVERIFY_URLS;

/**
 * reCAPTCHA, hCaptcha and Turnstile share one verification call: POST secret + response (+ remoteip)
 * as a form, read `success` from the JSON answer. Replays are refused by the providers themselves.
 */
export function createSiteverifyCaptcha(
  provider: SiteverifyProvider,
  secretKey: string,
  options: { timeoutMs?: number; url?: string } = {},
): CaptchaVerifier {
  const url = options.url ?? SITEVERIFY_URLS[provider];
  return {
    async verify(payload, remoteIp) {
      const body = new URLSearchParams({ secret: secretKey, response: payload, remoteip: remoteIp });
      try {
        const response = await fetch(url, {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        if (!response.ok) return false;
        const result = (await response.json()) as { success?: unknown };
        return result.success === true;
      } catch {
        return false;
      }
    },
  };
}
