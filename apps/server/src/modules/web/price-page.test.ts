import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { anOffer, createListeningTestApp } from '../../../test/support/upstream';

// Issue 34: a service's public price list is readable from its page's HTML, before and without any script.

let t: TestApp | undefined;
afterEach(async () => {
  if (t) await closeTestApp(t);
  t = undefined;
});

/** A built web app as the build leaves it: the shell, and the app's shell with its skeletons between markers. */
function builtWebApp(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'simcode-price-page-'));
  const head =
    '<head><title>__APP_NAME__</title><meta name="description" content="Temporary numbers." />' +
    '<meta property="og:title" content="__APP_NAME__" /><meta property="og:description" content="Temporary numbers." /></head>';
  writeFileSync(
    path.join(dist, 'index.html'),
    `<html>${head}<body><div id="root"><!--app-html--></div></body></html>`,
  );
  mkdirSync(path.join(dist, 'pages'));
  writeFileSync(
    path.join(dist, 'pages', 'app-shell.html'),
    `<html>${head}<body><div id="root" data-shell=""><!--shell--><p>skeleton</p><!--/shell--></div></body></html>`,
  );
  return dist;
}

const priceRows = (html: string) => [
  ...html.matchAll(/<tr class="border-b" data-testid="price-row">(.*?)<\/tr>/g),
];
const cells = (row: string) => [...row.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1]!);

describe("a service's public price list page", () => {
  it('carries the countries in stock, cheapest first, with our prices, its own title and address, in the language of its address', async () => {
    t = await createListeningTestApp({ WEB_DIST_DIR: builtWebApp(), APP_NAME: 'SimCode' });
    const offer = anOffer(t, 'US');
    const service = t.ctx.catalog.services('US').find((entry) => entry.service === offer.service)!;
    const selling = t.ctx.catalog.countriesSelling(offer.service).filter(({ offer: one }) => one.stock > 0);

    const page = await t.app.inject({ url: `/stats/${offer.service}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const html = page.body;
    expect(html).toContain(`<title>${service.name} numbers: prices now | SimCode</title>`);
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]+/stats/${offer.service}" />`));
    expect(html).toContain('data-shell=""');
    expect(html).not.toContain('skeleton');
    const rows = priceRows(html).map((row) => cells(row[1]!));
    expect(rows).toHaveLength(selling.length);
    const cheapest = Math.min(...selling.map(({ offer: one }) => one.priceCents));
    expect(rows[0]![1]).toBe(`$${(cheapest / 100).toFixed(2)}`);
    const us = rows.find((row) => row[0] === 'United States')!;
    expect(us[1]).toBe(`$${(offer.priceCents / 100).toFixed(2)}`);
    expect(html).toContain(
      `href="/register?next=${encodeURIComponent(`/dashboard?service=${offer.service}`)}"`,
    );

    const russian = (await t.app.inject({ url: `/ru/stats/${offer.service}` })).body;
    expect(russian).toContain(`<title>Номера ${service.name}: цены сейчас | SimCode</title>`);
    expect(priceRows(russian).map((row) => cells(row[1]!)[0])).toContain('Соединенные Штаты');

    // A service nobody sells: the app's shell, which says so once the app starts.
    const unknown = await t.app.inject({ url: '/stats/nosuchservice' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('skeleton');
  });
});
