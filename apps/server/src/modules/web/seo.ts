import { prerenderedPages } from '@simcode/contract';
import { escapeHtml } from '../../lib/html';

/** Pages a search engine may list: the public ones that arrive prerendered. */
const INDEXABLE_PATHS = Object.keys(prerenderedPages);

/** robots.txt: the public pages are open to crawlers; the signed-in area and the API are not. */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /dashboard',
    'Disallow: /api/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/** sitemap.xml of the public pages, with absolute URLs from PUBLIC_URL. */
export function sitemapXml(publicUrl: string): string {
  const urls = INDEXABLE_PATHS.map(
    (pathname) => `  <url><loc>${escapeHtml(`${publicUrl}${pathname}`)}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
