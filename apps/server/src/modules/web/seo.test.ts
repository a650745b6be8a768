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
  it('lists the prerendered public pages in every language with absolute URLs', () => {
    const sitemap = sitemapXml('https://simcode.example');
    expect(sitemap).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns=/);
    expect([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual([
      'https://simcode.example/',
      'https://simcode.example/faq',
      'https://simcode.example/stats',
      'https://simcode.example/status',
      'https://simcode.example/login',
      'https://simcode.example/register',
      'https://simcode.example/ru/',
      'https://simcode.example/ru/faq',
      'https://simcode.example/ru/stats',
      'https://simcode.example/ru/status',
      'https://simcode.example/ru/login',
      'https://simcode.example/ru/register',
      'https://simcode.example/zh/',
      'https://simcode.example/zh/faq',
      'https://simcode.example/zh/stats',
      'https://simcode.example/zh/status',
      'https://simcode.example/zh/login',
      'https://simcode.example/zh/register',
    ]);
  });

  it("names each page's versions in the other languages", () => {
    const faq = sitemapXml('https://simcode.example')
      .split('\n')
      .find((line) => line.includes('<loc>https://simcode.example/ru/faq</loc>'));
    expect(faq).toContain('<xhtml:link rel="alternate" hreflang="en" href="https://simcode.example/faq"/>');
    expect(faq).toContain(
      '<xhtml:link rel="alternate" hreflang="zh-CN" href="https://simcode.example/zh/faq"/>',
    );
  });

  it('escapes the address', () => {
    expect(sitemapXml('https://example.com/a&b')).toContain('<loc>https://example.com/a&amp;b/faq</loc>');
  });
});
