/** The colour themes a visitor can choose; without a choice the system's setting applies. */
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Holds the visitor's explicit choice, so the server can serve each page already in that theme. */
export const THEME_COOKIE = 'simcode_theme';

export function isTheme(value: unknown): value is Theme {
  return THEMES.includes(value as Theme);
}

/** The theme chosen in a Cookie header; null when none was (follow the system). */
export function themeFromCookies(cookieHeader: string | undefined): Theme | null {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === THEME_COOKIE && isTheme(value)) return value;
  }
  return null;
}
