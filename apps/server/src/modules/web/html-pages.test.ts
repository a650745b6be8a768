import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PublicConfig } from '@simcode/contract';
import { describe, expect, it } from 'vitest';
import { fillPlaceholders, loadHtmlPages } from './html-pages';

const config: PublicConfig = {
  appName: 'Codes & Co',
  captcha: { provider: 'altcha' },
  supportChatUrl: 'https://t.me/help?x=1&y=2',
  landingStats: [1500, 20, 184, 2000],
};

describe('fillPlaceholders', () => {
  it('writes the configured values, escaped for HTML', () => {
    const html = fillPlaceholders(
      '<title>__APP_NAME__</title><a href="__SUPPORT_CHAT_URL__"></a><link href="__PUBLIC_URL__/faq">' +
        '<meta content="__SIMCODE_CONFIG__"><b>__LANDING_STAT_0__</b><b>__LANDING_STAT_3__</b>',
      config,
      'https://simcode.example',
    );
    expect(html).toContain('<title>Codes &amp; Co</title>');
    expect(html).toContain('href="https://t.me/help?x=1&amp;y=2"');
    expect(html).toContain('<link href="https://simcode.example/faq">');
    expect(html).toContain('<b>1,500+</b><b>2,000+</b>');
    expect(html).toContain('&quot;landingStats&quot;:[1500,20,184,2000]');
    expect(html).not.toMatch(/__[A-Z_0-9]+__/);
  });
});

describe('loadHtmlPages', () => {
  function distWithPages() {
    const dist = mkdtempSync(path.join(tmpdir(), 'simcode-pages-'));
    writeFileSync(path.join(dist, 'index.html'), '<p>shell __APP_NAME__</p>');
    mkdirSync(path.join(dist, 'pages', 'en'), { recursive: true });
    mkdirSync(path.join(dist, 'pages', 'ru'));
    writeFileSync(path.join(dist, 'pages', 'en', 'home.html'), '<p>home __LANDING_STAT_1__</p>');
    writeFileSync(path.join(dist, 'pages', 'en', 'faq.html'), '<p>faq</p>');
    writeFileSync(path.join(dist, 'pages', 'ru', 'home.html'), '<p>главная</p>');
    writeFileSync(path.join(dist, 'pages', 'ru', 'faq.html'), '<p>вопросы</p>');
    return dist;
  }

  it('serves prerendered pages where they exist and the shell elsewhere, 404 for unknown routes', () => {
    const pages = loadHtmlPages(distWithPages(), config, 'https://simcode.example')!;
    expect(pages.pageFor('/', null)).toEqual({ html: '<p>home 20+</p>', status: 200 });
    expect(pages.pageFor('/faq/', null)).toEqual({ html: '<p>faq</p>', status: 200 });
    expect(pages.pageFor('/login', null)).toEqual({ html: '<p>shell Codes &amp; Co</p>', status: 200 });
    expect(pages.pageFor('/dashboard/topup', null).status).toBe(200);
    expect(pages.pageFor('/nowhere', null)).toEqual({ html: '<p>shell Codes &amp; Co</p>', status: 404 });
  });

  it("serves the app's shell, where the build made one, to every route that is not prerendered", () => {
    const dist = distWithPages();
    writeFileSync(
      path.join(dist, 'pages', 'app-shell.html'),
      '<div id="root" data-shell="">__APP_NAME__</div>',
    );
    const pages = loadHtmlPages(dist, config, 'https://simcode.example')!;
    const appShell = '<div id="root" data-shell="">Codes &amp; Co</div>';
    expect(pages.pageFor('/dashboard', null)).toEqual({ html: appShell, status: 200 });
    expect(pages.pageFor('/admin/users', null)).toEqual({ html: appShell, status: 200 });
    expect(pages.pageFor('/faq', null)).toEqual({ html: '<p>faq</p>', status: 200 });
  });

  it('serves a public page in the language of its address', () => {
    const pages = loadHtmlPages(distWithPages(), config, 'https://simcode.example')!;
    expect(pages.pageFor('/ru/', null)).toEqual({ html: '<p>главная</p>', status: 200 });
    expect(pages.pageFor('/ru', null)).toEqual({ html: '<p>главная</p>', status: 200 });
    expect(pages.pageFor('/ru/faq', null)).toEqual({ html: '<p>вопросы</p>', status: 200 });
    expect(pages.pageFor('/zh/login', null)).toEqual({ html: '<p>shell Codes &amp; Co</p>', status: 200 });
    expect(pages.pageFor('/ru/dashboard', null).status).toBe(404);
    expect(pages.pageFor('/en/faq', null).status).toBe(404);
  });

  it('marks a page with the theme chosen, on <html>, and leaves it to the system otherwise', () => {
    const dist = distWithPages();
    writeFileSync(
      path.join(dist, 'pages', 'en', 'faq.html'),
      '<!doctype html><html lang="en"><p>faq</p></html>',
    );
    const pages = loadHtmlPages(dist, config, 'https://simcode.example')!;
    expect(pages.pageFor('/faq', 'dark').html).toBe(
      '<!doctype html><html class="dark" lang="en"><p>faq</p></html>',
    );
    expect(pages.pageFor('/faq', 'light').html).toContain('<html class="light" lang="en">');
    expect(pages.pageFor('/faq', null).html).toContain('<html lang="en">');
  });

  it('is null when the web app is not built', () => {
    expect(
      loadHtmlPages(mkdtempSync(path.join(tmpdir(), 'simcode-empty-')), config, 'https://x.example'),
    ).toBeNull();
  });
});
