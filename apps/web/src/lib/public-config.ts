import {
  APP_NAME_PLACEHOLDER,
  DEFAULT_LANDING_STATS,
  PUBLIC_CONFIG_META,
  type PublicConfig,
  SUPPORT_CHAT_URL_PLACEHOLDER,
} from '@simcode/contract';

const DEFAULT_CONFIG: PublicConfig = {
  appName: 'SimCode',
  captcha: { provider: 'altcha' },
  supportChatUrl: 'https://t.me/simcode_support',
  landingStats: DEFAULT_LANDING_STATS,
};

let cached: PublicConfig | undefined;

/** The server writes the public settings into a meta tag of every page; read once, then reuse. */
export function publicConfig(): PublicConfig {
  if (cached) return cached;
  // Rendering at build time: the server fills the configured values into the placeholders when it serves the page.
  if (typeof document === 'undefined') {
    return { ...DEFAULT_CONFIG, appName: APP_NAME_PLACEHOLDER, supportChatUrl: SUPPORT_CHAT_URL_PLACEHOLDER };
  }
  const content = document.querySelector(`meta[name="${PUBLIC_CONFIG_META}"]`)?.getAttribute('content');
  try {
    cached = { ...DEFAULT_CONFIG, ...(content ? (JSON.parse(content) as Partial<PublicConfig>) : {}) };
  } catch {
    // Not filled in (a page opened straight from the build folder): the defaults are right for it.
    cached = DEFAULT_CONFIG;
  }
  return cached;
}
