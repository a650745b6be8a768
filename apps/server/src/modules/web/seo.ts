import { LANGUAGE_TAGS, LANGUAGES, localizedPublicPages, localizedPublicPath } from '@simcode/contract';
import { escapeHtml } from '../../lib/html';

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

/**
 * sitemap.xml of the public pages (the ones that arrive prerendered) in every language, with absolute URLs
 * from PUBLIC_URL, each listing its versions in the other languages.
 */
export function sitemapXml(publicUrl: string): string {
  const urls = localizedPublicPages.map(({ page, path }) => {
    const alternates = LANGUAGES.map(
      (language) =>
        `<xhtml:link rel="alternate" hreflang="${LANGUAGE_TAGS[language]}" href="${escapeHtml(`${publicUrl}${localizedPublicPath(page, language)}`)}"/>`,
    );
    return `  <url><loc>${escapeHtml(`${publicUrl}${path}`)}</loc>${alternates.join('')}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
