import { isTheme, THEME_COOKIE, THEMES, type Theme } from '@simcode/contract';
import { useSyncExternalStore } from 'react';

/** A theme chosen, or the system's setting followed. */
export type ThemeChoice = Theme | 'system';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', ...THEMES];

const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;
const listeners = new Set<() => void>();

/** The choice the page is in: the server put its class on <html> from the cookie. */
function currentTheme(): ThemeChoice {
  const { classList } = document.documentElement;
  return THEMES.find((theme) => classList.contains(theme)) ?? 'system';
}

/**
 * Applies a choice at once (the class the stylesheet reads) and keeps it in the cookie the server reads to
 * serve every page already in it: no flash of the other theme on the next load.
 */
export function chooseTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  root.classList.remove(...THEMES);
  if (isTheme(choice)) root.classList.add(choice);
  // Following the system again: the cookie goes (Max-Age 0).
  const [value, maxAge] = isTheme(choice) ? [choice, COOKIE_MAX_AGE_SECONDS] : ['', 0];
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari before 2025.
  document.cookie = `${THEME_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax`;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current choice; 'system' while a prerendered page hydrates (its HTML was made without one). */
export function useTheme(): ThemeChoice {
  return useSyncExternalStore(subscribe, currentTheme, () => 'system');
}
