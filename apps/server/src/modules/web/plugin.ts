import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { DEFAULT_LANGUAGE, type PublicConfig, publicPageOf, themeFromCookies } from '@simcode/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { answerError } from '../../lib/error-handler';
import { fail } from '../../lib/errors';
import { serverRoot } from '../../lib/paths';
import { type Precompressed, precompress, sendPrecompressed } from '../../lib/precompressed';
import { loadHtmlPages, type ServicePricesSource } from './html-pages';
import { languageRedirect } from './language-redirect';
import { ownHostRedirect } from './own-host';
import { robotsTxt, sitemapXml } from './seo';

/** Compressed pages kept: every prerendered page and price list in every language and theme, with room. */
const ENCODED_PAGES_MAX = 1000;

const htmlHeaders = { contentType: 'text/html; charset=utf-8', cacheControl: 'no-cache' };

const DEFAULT_DIST_DIR = path.resolve(serverRoot, '../web/dist');

/** Where the built web app is read from. */
export function webDistDir(config: Pick<Config, 'WEB_DIST_DIR'>): string {
  return config.WEB_DIST_DIR ? path.resolve(config.WEB_DIST_DIR) : DEFAULT_DIST_DIR;
}
/** Paths owned by machine clients: an unknown one answers JSON, never the web app. */
const MACHINE_PREFIXES = ['/api/', '/simulator/', '/sandbox/'];
/** Paths of machine clients that are not under a prefix: never a page, never redirected. */
const MACHINE_PATHS = new Set(['/healthz', '/readyz', '/mcp']);
/** Vite puts content-hashed files here: they never change, so browsers may keep them for a year. */
const HASHED_ASSETS_DIR = `${path.sep}assets${path.sep}`;

export function publicConfigOf(config: Config): PublicConfig {
  return {
    appName: config.APP_NAME,
    captcha: { provider: config.CAPTCHA_PROVIDER, siteKey: config.CAPTCHA_SITE_KEY },
    supportChatUrl: config.SUPPORT_CHAT_URL,
    landingStats: config.LANDING_STATS,
  };
}

/** A browser asking for a page of the web app: not an API, machine, health or asset path. */
function isPageRequest(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '/';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    pathname !== '/api' &&
    !MACHINE_PREFIXES.some((prefix) => pathname.startsWith(prefix)) &&
    !MACHINE_PATHS.has(pathname) &&
    !path.extname(pathname)
  );
}

/**
 * One origin for the pages: a session (its token in local storage), the payment window's return and the
 * app's own links then all live on PUBLIC_URL, whichever of the server's names the browser came by. True
 * when the request was redirected there. Every request passes here (the request hook of
 * app/build-app.ts), and an API call (most of them) settles on its first characters.
 */
export function redirectedToOwnHost(
  publicUrl: string,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  if (request.url.startsWith('/api/') || !isPageRequest(request)) return false;
  const target = ownHostRedirect(publicUrl, request.headers.host);
  if (!target) return false;
  reply.redirect(`${target}${request.url}`, 308);
  return true;
}

/**
 * Serves the built web app from the same process: hashed assets with long-lived caching, HTML never
 * cached, and every other GET of a page answered with the app (history fallback).
 */
export async function registerWebApp(
  app: FastifyInstance,
  config: Config,
  servicePrices?: ServicePricesSource,
): Promise<void> {
  const distDir = webDistDir(config);
  const pages = loadHtmlPages(distDir, publicConfigOf(config), config.PUBLIC_URL, servicePrices);
  if (!pages) {
    app.log.warn({ distDir }, 'the web app is not built: run `npm run build` (the API works without it)');
  } else if (existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: false,
      wildcard: false,
      // The build writes a brotli and a gzip copy beside each text asset: sent as is, never compressed per request.
      preCompressed: true,
      // Routes for the logical files only; the compressed copies and the build manifest are not pages.
      globIgnore: ['**/*.br', '**/*.gz', '.vite/**'],
      // HTML is served below, with the configuration filled in.
      allowedPath: (pathname) => !pathname.endsWith('.html'),
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(HASHED_ASSETS_DIR)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600',
        );
      },
    });
  }

  app.get('/api/public-config', { schema: { hide: true } }, async () => publicConfigOf(config));
  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(config.PUBLIC_URL)),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(sitemapXml(config.PUBLIC_URL)),
  );

  // A handful of pages, each compressed once; browsers revalidate them (no-cache) and get 304 when unchanged.
  // The price lists' pages change with the catalog: past a bound the oldest compressed copies are dropped.
  const encodedPages = new Map<string, Precompressed>();
  const encodedPage = (html: string) => {
    let encoded = encodedPages.get(html);
    if (!encoded) {
      if (encodedPages.size >= ENCODED_PAGES_MAX) encodedPages.delete(encodedPages.keys().next().value!);
      encoded = precompress(html, createHash('sha1').update(html).digest('base64url').slice(0, 16));
      encodedPages.set(html, encoded);
    }
    return encoded;
  };

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // The one error shape, and the JSON API's problem for a path under /api/v1 that names no route.
    if (!isPageRequest(request)) return answerError(fail('not_found'), request, reply);
    if (!pages) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build`, then reload.');
    }
    const search = request.url.slice(pathname.length);
    const redirect = languageRedirect(pathname, search, request.headers);
    // Every page carries the theme chosen in a cookie, and the English address answers by the visitor's
    // language: no cache may hand one visitor's page to another.
    const vary = publicPageOf(pathname)?.language === DEFAULT_LANGUAGE ? 'accept-language, cookie' : 'cookie';
    if (redirect) {
      if (vary) reply.header('vary', vary);
      if (redirect.setCookie) reply.header('set-cookie', redirect.setCookie);
      return reply.header('cache-control', 'no-store').redirect(redirect.location, 302);
    }
    const { html, status } = pages.pageFor(pathname, themeFromCookies(request.headers.cookie));
    return sendPrecompressed(request, reply.code(status), encodedPage(html), { ...htmlHeaders, vary });
  });
}
