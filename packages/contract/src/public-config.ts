import type { CaptchaConfig } from './auth';

/** The landing page's figures, in the order shown: SMS delivered, satisfied users, countries, services. */
export type LandingStats = readonly [
  smsDelivered: number,
  users: number,
  countries: number,
  services: number,
];

/**
 * Settings the browser needs, written by the server into a meta tag of every HTML page
 * (`<meta name="simcode-config">`), so the page needs no extra request and no inline script.
 */
export interface PublicConfig {
  appName: string;
  captcha: CaptchaConfig;
  supportChatUrl: string;
  landingStats: LandingStats;
}

export const PUBLIC_CONFIG_META = 'simcode-config';
/** Placeholders in the built HTML that the server fills in at start. */
export const APP_NAME_PLACEHOLDER = '__APP_NAME__';
export const PUBLIC_CONFIG_PLACEHOLDER = '__SIMCODE_CONFIG__';
export const SUPPORT_CHAT_URL_PLACEHOLDER = '__SUPPORT_CHAT_URL__';
/** The site's own absolute URL (PUBLIC_URL), for canonical links and Open Graph tags. */
export const PUBLIC_URL_PLACEHOLDER = '__PUBLIC_URL__';

/** The spec's figures; the server's LANDING_STATS setting replaces them. */
export const DEFAULT_LANDING_STATS: LandingStats = [148763, 24585, 180, 1000];

/**
 * Where the i-th landing figure stands in prerendered HTML. The server writes the configured figure there,
 * so a visitor sees the operator's figures before any script runs and hydration finds the same text.
 */
export function landingStatPlaceholder(index: number): string {
  return `__LANDING_STAT_${index}__`;
}

/** '148,763+': one format for the server's filled-in HTML and the page's own rendering. */
export function formatLandingStat(value: number): string {
  return `${value.toLocaleString('en-US')}+`;
}
