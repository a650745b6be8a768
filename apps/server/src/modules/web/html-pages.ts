import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  APP_NAME_PLACEHOLDER,
  APP_SHELL_FILE,
  formatLandingStat,
  isAppPath,
  type Language,
  landingStatPlaceholder,
  localizedPublicPages,
  localizedPublicPath,
  PUBLIC_CONFIG_PLACEHOLDER,
  PUBLIC_URL_PLACEHOLDER,
  type PublicConfig,
  prerenderedPages,
  publicPageOf,
  SUPPORT_CHAT_URL_PLACEHOLDER,
  statsServiceOf,
  THEMES,
  type Theme,
} from '@simcode/contract';
import { escapeHtml } from '../../lib/html';
import { inLanguage } from '../../lib/request-language';
import { type PricePageParts, pricePageParts, type ServicePrices } from './price-page';

/** What the server needs to send a service's price list in its page's HTML (price-page.ts). */
export interface ServicePricesSource {
  /** The service's offers now; null for a service nobody sells or before the catalog has loaded. */
  of(service: string): ServicePrices | null;
  /** Changes whenever the offers may have: pages built under an older one are built again. */
  version(): string;
}

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

/** The app's shell with a service's price list in place of its skeletons, and the page's own head. */
function withPricePage(appShell: string, parts: PricePageParts, appName: string, publicUrl: string): string {
  const title = escapeHtml(`${parts.title} | ${appName}`);
  const description = escapeHtml(parts.description);
  return appShell
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    .replace(
      /<meta name="description" content="[^"]*"/,
      () => `<meta name="description" content="${description}"`,
    )
    .replace(
      /<meta property="og:title" content="[^"]*"/,
      () => `<meta property="og:title" content="${title}"`,
    )
    .replace(
      /<meta property="og:description" content="[^"]*"/,
      () => `<meta property="og:description" content="${description}"`,
    )
    .replace(
      '</head>',
      () => `<link rel="canonical" href="${escapeHtml(publicUrl + parts.canonicalPath)}" />\n  </head>`,
    )
    .replace(/<!--shell-->[\s\S]*<!--\/shell-->/, () => `<!--shell-->${parts.content}<!--/shell-->`);
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
  servicePrices?: ServicePricesSource,
): HtmlPages | null {
  const shellFile = path.join(distDir, 'index.html');
  if (!existsSync(shellFile)) return null;
  const fill = (html: string) => fillPlaceholders(html, publicConfig, publicUrl);
  // The shell with the app's frame painted as skeletons, where the build made one: a slow connection sees
  // the layout at once rather than a white page until the script arrives.
  const appShellFile = path.join(distDir, APP_SHELL_FILE);
  const appShell = existsSync(appShellFile) ? fill(readFileSync(appShellFile, 'utf8')) : null;
  const shell = themed(appShell ?? fill(readFileSync(shellFile, 'utf8')));
  // A service's public price list comes with its prices in the HTML, built once per catalog version.
  const pricePages = new Map<string, ThemedHtml>();
  let pricesVersion = '';
  function pricePage(service: string, language: Language): ThemedHtml | null {
    if (!appShell || !servicePrices) return null;
    const version = servicePrices.version();
    if (version !== pricesVersion) {
      pricePages.clear();
      pricesVersion = version;
    }
    const key = `${service}:${language}`;
    let page = pricePages.get(key);
    if (!page) {
      const prices = servicePrices.of(service);
      if (!prices) return null;
      const parts = inLanguage(language, () => pricePageParts(prices));
      page = themed(withPricePage(appShell, parts, publicConfig.appName, publicUrl));
      pricePages.set(key, page);
    }
    return page;
  }
  // Keyed by the page's address in its language: '/faq', '/ru/faq', '/ru/'.
  const prerendered = new Map<string, ThemedHtml>();
  for (const { page, language, path: address } of localizedPublicPages) {
    const file = path.join(distDir, 'pages', language, `${prerenderedPages[page]}.html`);
    if (existsSync(file)) prerendered.set(address, themed(fill(readFileSync(file, 'utf8'))));
  }
  return {
    pageFor(pathname, theme) {
      const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      const statsService = statsServiceOf(normalized);
      const prices = statsService && pricePage(statsService.service, statsService.language);
      if (prices) return { html: prices[theme ?? 'system'], status: 200 };
      const publicPage = publicPageOf(normalized);
      const address = publicPage && localizedPublicPath(publicPage.page, publicPage.language);
      const page = (address && prerendered.get(address)) || shell;
      return { html: page[theme ?? 'system'], status: isAppPath(normalized) ? 200 : 404 };
    },
  };
}
