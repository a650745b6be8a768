import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  APP_NAME_PLACEHOLDER,
  APP_SHELL_FILE,
  formatLandingStat,
  isAppPath,
  landingStatPlaceholder,
  localizedPublicPages,
  localizedPublicPath,
  PUBLIC_CONFIG_PLACEHOLDER,
  PUBLIC_URL_PLACEHOLDER,
  type PublicConfig,
  prerenderedPages,
  publicPageOf,
  SUPPORT_CHAT_URL_PLACEHOLDER,
  THEMES,
  type Theme,
} from '@simcode/contract';
import { escapeHtml } from '../../lib/html';

export interface HtmlPages {
  /**
   * The HTML for a path, in the theme the visitor chose (null: the system's), and the status it deserves:
   * 200 for a route of the app, 404 otherwise.
   */
  pageFor(pathname: string, theme: Theme | null): { html: string; status: 200 | 404 };
}

/** A page and its copies with a chosen theme's class on <html>: the stylesheet follows the system without one. */
type ThemedHtml = Record<Theme | 'system', string>;

/** Marks the page with the theme chosen, so its first paint is in it (the CSP allows no inline script to). */
function themed(html: string): ThemedHtml {
  const variants = { system: html } as ThemedHtml;
  for (const theme of THEMES) variants[theme] = html.replace(/<html\b/, `<html class="${theme}"`);
  return variants;
}

/** Writes the configured values into the placeholders the build left in a page. */
export function fillPlaceholders(html: string, publicConfig: PublicConfig, publicUrl: string): string {
  let filled = html
    .replaceAll(APP_NAME_PLACEHOLDER, escapeHtml(publicConfig.appName))
    .replaceAll(PUBLIC_CONFIG_PLACEHOLDER, escapeHtml(JSON.stringify(publicConfig)))
    .replaceAll(PUBLIC_URL_PLACEHOLDER, escapeHtml(publicUrl))
    .replaceAll(SUPPORT_CHAT_URL_PLACEHOLDER, escapeHtml(publicConfig.supportChatUrl));
  publicConfig.landingStats.forEach((value, index) => {
    filled = filled.replaceAll(landingStatPlaceholder(index), formatLandingStat(value));
  });
  return filled;
}

/**
 * Reads the built HTML once at start and fills in the configured name and public settings, so serving a
 * page is a map lookup. Prerendered public pages are used where they exist; every other route gets the app's
 * shell (or the bare one, when the build made none).
 */
export function loadHtmlPages(
  distDir: string,
  publicConfig: PublicConfig,
  publicUrl: string,
): HtmlPages | null {
  const shellFile = path.join(distDir, 'index.html');
  if (!existsSync(shellFile)) return null;
  const fill = (html: string) => fillPlaceholders(html, publicConfig, publicUrl);
  // The shell with the app's frame painted as skeletons, where the build made one: a slow connection sees
  // the layout at once rather than a white page until the script arrives.
  const appShellFile = path.join(distDir, APP_SHELL_FILE);
  const shell = themed(fill(readFileSync(existsSync(appShellFile) ? appShellFile : shellFile, 'utf8')));
  // Keyed by the page's address in its language: '/faq', '/ru/faq', '/ru/'.
  const prerendered = new Map<string, ThemedHtml>();
  for (const { page, language, path: address } of localizedPublicPages) {
    const file = path.join(distDir, 'pages', language, `${prerenderedPages[page]}.html`);
    if (existsSync(file)) prerendered.set(address, themed(fill(readFileSync(file, 'utf8'))));
  }
  return {
    pageFor(pathname, theme) {
      const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      const publicPage = publicPageOf(normalized);
      const address = publicPage && localizedPublicPath(publicPage.page, publicPage.language);
      const page = (address && prerendered.get(address)) || shell;
      return { html: page[theme ?? 'system'], status: isAppPath(normalized) ? 200 : 404 };
    },
  };
}
