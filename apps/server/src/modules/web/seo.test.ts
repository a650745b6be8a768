import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapXml } from './seo';

describe('robots.txt', () => {
  it('opens the public pages, closes the signed-in area and the API, and names the sitemap', () => {
    const robots = robotsTxt('https://simcode.example');
    expect(robots).toContain('User-agent: *\nAllow: /\n');
    expect(robots).toContain('Disallow: /dashboard\n');
    expect(robots).toContain('Disallow: /api/\n');
    expect(robots).toContain('Sitemap: https://simcode.example/sitemap.xml\n');
  });
});

describe('sitemap.xml', () => {
  it('lists the prerendered public pages with absolute URLs', () => {
    const sitemap = sitemapXml('https://simcode.example');
    expect(sitemap).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns=/);
    expect([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual([
      'https://simcode.example/',
      'https://simcode.example/faq',
      'https://simcode.example/login',
      'https://simcode.example/register',
    ]);
  });

  it('escapes the address', () => {
    expect(sitemapXml('https://example.com/a&b')).toContain('<loc>https://example.com/a&amp;b/faq</loc>');
  });
});
