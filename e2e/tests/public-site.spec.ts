import { expect, type Page } from '@playwright/test';
import { test } from '../support/test';

// The public site: landing page, /faq, the policies and the PDF, head tags, robots and sitemap.
// Figures and the chat link come from the running server's public configuration, not from this file.

interface PublicConfig {
  appName: string;
  supportChatUrl: string;
  landingStats: number[];
}

const LANDING_SERVICES = [
  'go',
  'fb',
  'ig',
  'tg',
  'tw',
  'mm',
  'wa',
  'vi',
  'mb',
  'oi',
  'wb',
  'vk',
  'ok',
  'ub',
  'uk',
  'qw',
  'sn',
  'mg',
];
const PUBLIC_PAGES = ['/', '/faq', '/stats', '/status', '/login', '/register'];
const ANCHOR_OFFSET_PX = 80;

async function publicConfig(page: Page): Promise<PublicConfig> {
  return (await page.request.get('/api/public-config')).json();
}

const formatStat = (value: number) => `${value.toLocaleString('en-US')}+`;

/** The content pages start their script on the first interaction; a pointer move is one. */
async function startApp(page: Page) {
  await page.mouse.move(5, 5);
  await page.mouse.move(10, 10);
  await expect(page.locator('html[data-interactive]')).toBeAttached();
}

/** Where an element's top edge is in the viewport, once smooth scrolling has come to rest. */
async function expectTopAt(page: Page, selector: string, top: number) {
  await expect
    .poll(async () =>
      Math.round(await page.locator(selector).evaluate((element) => element.getBoundingClientRect().top)),
    )
    .toBe(top);
}

test.describe('landing page', () => {
  test('has the spec sections in order, with their ids', async ({ page }) => {
    await page.goto('/');
    const sections = page.locator('main > section');
    await expect(sections).toHaveCount(7);
    expect(await sections.evaluateAll((all) => all.map((section) => section.id))).toEqual([
      'hero',
      '',
      'features',
      'service-providers',
      'how-it-works',
      'faq',
      '',
    ]);
    await expect(page.getByRole('region', { name: 'Statistics' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('real SIM numbers');
  });

  test('states every claim of the spec', async ({ page }) => {
    await page.goto('/');
    const main = page.locator('main');
    for (const claim of [
      '180+ countries',
      '1,000+ services',
      'never resold',
      'Instant activation',
      'you pay only for what you use',
      'No subscriptions',
      '24/7 support',
      'unlimited messages',
      'Beta',
      'every minute',
    ]) {
      await expect(main, claim).toContainText(claim);
    }
    await expect(page.locator('footer')).toContainText('Real SIM numbers from 180+ countries');
  });

  test('links to sign in, sign up, support and the support chat', async ({ page }) => {
    const { supportChatUrl } = await publicConfig(page);
    await page.goto('/');
    const main = page.locator('main');
    await expect(main.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Get Started' })).toHaveAttribute(
      'href',
      '/login',
    );
    for (const link of await main.getByRole('link', { name: 'Create Account' }).all()) {
      await expect(link).toHaveAttribute('href', '/register');
    }
    const support = main.getByRole('link', { name: 'Contact Support' });
    await expect(support).toHaveCount(2);
    for (const link of await support.all()) await expect(link).toHaveAttribute('href', '/dashboard/tickets');
    const chat = main.getByRole('link', { name: /Chat with support/ });
    await expect(chat).toHaveAttribute('href', supportChatUrl);
    await expect(chat).toHaveAttribute('target', '_blank');
    await expect(chat).toHaveAttribute('rel', /noopener/);

    await main.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL('/login');
    await page.goto('/');
    await main.getByRole('link', { name: 'Create Account' }).first().click();
    await expect(page).toHaveURL('/register');
  });

  test('navigation anchors scroll to their sections with an 80 px offset', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [label, id] of [
      ['Features', 'features'],
      ['How it Works', 'how-it-works'],
      ['FAQ', 'faq'],
    ] as const) {
      await nav.getByRole('link', { name: label }).click();
      await expectTopAt(page, `#${id}`, ANCHOR_OFFSET_PX);
      await expect(page).toHaveURL(`/#${id}`);
    }
  });

  test('footer anchors scroll with the same offset, and lead home from another page', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    await footer.getByRole('link', { name: 'Features' }).click();
    await expectTopAt(page, '#features', ANCHOR_OFFSET_PX);
    await footer.getByRole('link', { name: 'How it Works' }).click();
    await expectTopAt(page, '#how-it-works', ANCHOR_OFFSET_PX);

    await page.goto('/faq');
    await footer.getByRole('link', { name: 'How it Works' }).click();
    await expect(page).toHaveURL('/#how-it-works');
    await expectTopAt(page, '#how-it-works', ANCHOR_OFFSET_PX);
  });

  test('footer links go to the FAQ, sign in, support and the terms PDF', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq');
    await expect(footer.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    await expect(footer.getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/dashboard/tickets');
    await expect(footer.getByRole('link', { name: 'Terms (PDF)' })).toHaveAttribute('href', '/terms.pdf');
    await footer.getByRole('link', { name: 'FAQ' }).click();
    await expect(page).toHaveURL('/faq');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently Asked Questions');
  });

  test('the navigation bar compacts after 50 px and the scroll-to-top button appears after 200 px', async ({
    page,
  }) => {
    await page.goto('/');
    await startApp(page);
    const header = page.getByRole('banner');
    const toTop = page.getByRole('button', { name: 'Scroll to top' });

    await page.evaluate(() => window.scrollTo(0, 50));
    await expect(header).not.toHaveAttribute('data-compact');
    await page.evaluate(() => window.scrollTo(0, 51));
    await expect(header).toHaveAttribute('data-compact');

    await page.evaluate(() => window.scrollTo(0, 200));
    await expect(toTop).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 201));
    await expect(toTop).toBeVisible();

    // At the bottom of the page it rides above the footer, covering none of its links.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footer = page.getByRole('contentinfo');
    await expect
      .poll(async () => {
        const button = (await toTop.boundingBox())!;
        const top = (await footer.boundingBox())!.y;
        return button.y + button.height <= top;
      })
      .toBe(true);

    await page.evaluate(() => window.scrollTo(0, 2000));
    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(toTop).toBeHidden();
    await expect(header).not.toHaveAttribute('data-compact');
  });

  test('statistics count up to the configured figures when they scroll into view', async ({ page }) => {
    const { landingStats } = await publicConfig(page);
    // A phone's viewport: the statistics start below the fold.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const stats = page.getByRole('region', { name: 'Statistics' });
    // The page's bootstrap runs the count-up: no interaction needed (the figures without script: below).
    const list = stats.locator('dl');
    await expect(list).toHaveAttribute('data-count-up', 'waiting');
    await expect(stats.locator('[data-stat]')).toHaveText(landingStats.map(() => '0+'));

    await list.scrollIntoViewIfNeeded();
    await expect(list).toHaveAttribute('data-count-up', /counting|done/);
    await expect(list).toHaveAttribute('data-count-up', 'done');
    await expect(stats.locator('[data-stat]')).toHaveText(landingStats.map(formatStat));
  });

  test('statistics already in view on a desktop count up at load, before any interaction', async ({
    page,
  }) => {
    const { landingStats } = await publicConfig(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const stats = page.getByRole('region', { name: 'Statistics' });
    await expect(stats.locator('dl')).toHaveAttribute('data-count-up', /counting|done/);
    await expect(stats.locator('dl')).toHaveAttribute('data-count-up', 'done');
    await expect(stats.locator('[data-stat]')).toHaveText(landingStats.map(formatStat));
    // Nothing started the app: the count-up is the bootstrap's.
    await expect(page.locator('html[data-interactive]')).toHaveCount(0);
  });

  test('statistics show their final figures at once for visitors who prefer reduced motion', async ({
    page,
  }) => {
    const { landingStats } = await publicConfig(page);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const stats = page.getByRole('region', { name: 'Statistics' });
    await expect(stats.locator('dl')).toHaveAttribute('data-count-up', 'final');
    await expect(stats.locator('[data-stat]')).toHaveText(landingStats.map(formatStat));
  });

  test('shows the 18 services in the spec order, each with a name and an icon, then many more', async ({
    page,
  }) => {
    await page.goto('/');
    const section = page.locator('#service-providers');
    const tiles = section.locator('[data-service-code]');
    expect(
      await tiles.evaluateAll((all) => all.map((tile) => tile.getAttribute('data-service-code'))),
    ).toEqual(LANDING_SERVICES);
    for (const tile of await tiles.all()) {
      await expect(tile.locator('span[aria-hidden="true"]').first()).toBeVisible();
      await expect(tile).not.toHaveText('');
    }
    await expect(tiles.first()).toContainText('Google');
    // A tile opens the service's public delivery figures.
    await expect(tiles.first().getByRole('link')).toHaveAttribute('href', `/stats/${LANDING_SERVICES[0]}`);
    await expect(section.getByRole('listitem').last()).toHaveText('And many more...');
  });

  test('the FAQ section opens answers with the keyboard and links to the full FAQ', async ({ page }) => {
    await page.goto('/');
    const faq = page.locator('#faq');
    const question = faq.locator('summary').first();
    await question.focus();
    await page.keyboard.press('Enter');
    await expect(faq.locator('details').first()).toHaveAttribute('open');
    await expect(faq.locator('details').first()).toContainText('verification code appears in My Numbers');
    await expect(faq.getByRole('link', { name: 'See all questions' })).toHaveAttribute('href', '/faq');
  });

  test('works before its script runs: content, figures and anchors', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const { landingStats } = await publicConfig(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Statistics' }).locator('[data-stat]')).toHaveText(
      landingStats.map(formatStat),
    );
    await expect(page.locator('[data-service-code]')).toHaveCount(18);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'How it Works' }).click();
    await expectTopAt(page, '#how-it-works', ANCHOR_OFFSET_PX);
    await context.close();
  });
});

test.describe('policies', () => {
  for (const [title, key] of [
    ['Terms of Service', 'Enter'],
    ['Refund Policy', 'Space'],
  ] as const) {
    test(`the ${title} dialog opens and closes with the keyboard`, async ({ page }) => {
      await page.goto('/');
      const opener = page.locator('footer').getByRole('button', { name: title });
      await opener.focus();
      await page.keyboard.press(key);
      const dialog = page.getByRole('dialog', { name: title });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText('Effective 2024');
      await expect(dialog.getByRole('button', { name: 'Close' }).first()).toBeVisible();
      // Focus is trapped inside while it is open.
      await expect
        .poll(() => dialog.evaluate((element) => element.contains(document.activeElement)))
        .toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();

      await page.keyboard.press(key);
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Close' }).last().focus();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    });
  }

  test('the policies carry the spec terms', async ({ page }) => {
    await page.goto('/');
    await page.locator('footer').getByRole('button', { name: 'Refund Policy' }).click();
    const refund = page.getByRole('dialog', { name: 'Refund Policy' });
    for (const term of [
      'All sales are final',
      'technical error',
      '48 hours',
      '3 business days',
      '20 minutes',
    ]) {
      await expect(refund).toContainText(term);
    }
    await page.keyboard.press('Escape');
    await page.locator('footer').getByRole('button', { name: 'Terms of Service' }).click();
    const terms = page.getByRole('dialog', { name: 'Terms of Service' });
    for (const term of [
      'clicked Deposit',
      'freeze the account',
      'e-mail address and cookie statistics',
      '200 SMS',
    ]) {
      await expect(terms).toContainText(term);
    }
  });

  test('the terms PDF is served as a PDF at a stable address', async ({ request }) => {
    const response = await request.get('/terms.pdf');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const body = await response.body();
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

test.describe('/faq', () => {
  test('a deep link shows its question below the navigation bar', async ({ page }) => {
    await page.goto('/faq#cancel-a-number');
    const article = page.locator('article#cancel-a-number');
    await expect(article).toContainText('2 minutes after the purchase');
    await expectTopAt(page, '#cancel-a-number', ANCHOR_OFFSET_PX);
    expect(await article.evaluate((element) => element.matches(':target'))).toBe(true);
  });

  test('every question has a link to itself', async ({ page }) => {
    await page.goto('/faq');
    const articles = page.locator('article');
    expect(await articles.count()).toBeGreaterThan(15);
    for (const article of await articles.all()) {
      const id = await article.getAttribute('id');
      await expect(article.getByRole('link', { name: /Link to this question/ })).toHaveAttribute(
        'href',
        `#${id}`,
      );
    }
    await page
      .locator('article#no-swap-numbers')
      .getByRole('link', { name: /Link to this question/ })
      .click();
    await expect(page).toHaveURL('/faq#no-swap-numbers');
    await expectTopAt(page, '#no-swap-numbers', ANCHOR_OFFSET_PX);
  });

  test('answers the spec facts', async ({ page }) => {
    await page.goto('/faq');
    const main = page.locator('main');
    for (const fact of [
      'counted on the dashboard (Total Countries)',
      'Every minute',
      '20 minutes',
      'from 2 minutes after the purchase',
      'from 4 hours to 1 month',
      '24 hours by default',
      '1 to 7 weeks or 1 to 3 months',
      'renews automatically',
      'up to 12 hours',
      'up to 3 hours',
      'no swap numbers',
      'at least 5 times',
      'after 24 hours',
      'Cancel it and order another one',
      'proxy or VPN',
      'at least 10 numbers',
      '5 to 10 minutes',
      'more than 200 SMS per day',
      'Prices depend on demand',
    ]) {
      await expect(main, fact).toContainText(fact);
    }
  });

  test('search narrows the questions', async ({ page }) => {
    await page.goto('/faq');
    const search = page.getByRole('searchbox', { name: 'Search the questions' });
    await search.fill('vpn');
    await expect(page.locator('article')).toHaveCount(1);
    await expect(page.locator('article')).toHaveId('number-cannot-be-used');
    await expect(page.locator('#faq-search-result')).toHaveText('1 question found');
    await search.fill('no such words anywhere');
    await expect(page.locator('article')).toHaveCount(0);
    await expect(page.locator('main')).toContainText('No question matches');
    await search.fill('');
    expect(await page.locator('article').count()).toBeGreaterThan(15);
  });
});

test.describe('every public page', () => {
  test('has its title, description, Open Graph tags and favicon', async ({ page, request }) => {
    const { appName } = await publicConfig(page);
    for (const pathname of PUBLIC_PAGES) {
      await page.goto(pathname);
      await expect(page).toHaveTitle(new RegExp(`\\| ${appName}$`));
      const head = page.locator('head');
      await expect(head.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/);
      await expect(head.locator('meta[property="og:title"]')).toHaveAttribute('content', new RegExp(appName));
      await expect(head.locator('meta[property="og:description"]')).toHaveAttribute('content', /.{40,}/);
      await expect(head.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website');
      await expect(head.locator('meta[property="og:url"]')).toHaveAttribute(
        'content',
        new RegExp(`^https?://.+${pathname}$`),
      );
      await expect(head.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${pathname}$`));
      await expect(head.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
    }
    const favicon = await request.get('/favicon.svg');
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()['content-type']).toContain('image/svg+xml');
  });

  test('arrives prerendered: its content is in the HTML', { tag: '@smoke' }, async ({ request }) => {
    const expectations: Record<string, string> = {
      '/': 'real SIM numbers',
      '/faq': 'Frequently Asked Questions',
      '/login': 'Welcome back',
      '/register': 'Create your account',
    };
    for (const [pathname, text] of Object.entries(expectations)) {
      const html = await (await request.get(pathname)).text();
      expect(html, pathname).toContain(text);
      expect(html, pathname).not.toMatch(/__[A-Z_0-9]+__/);
    }
  });

  test('robots.txt and sitemap.xml list the public pages, in every language', async ({ request }) => {
    const robots = await request.get('/robots.txt');
    expect(robots.headers()['content-type']).toContain('text/plain');
    const robotsText = await robots.text();
    expect(robotsText).toContain('Disallow: /dashboard');
    const sitemapUrl = robotsText.match(/^Sitemap: (.+)$/m)?.[1];
    expect(sitemapUrl).toMatch(/\/sitemap\.xml$/);
    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.headers()['content-type']).toContain('application/xml');
    const locations = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (match) => new URL(match[1]!).pathname,
    );
    expect(locations).toEqual(
      ['', '/ru', '/zh'].flatMap((prefix) =>
        PUBLIC_PAGES.map((page) => (prefix && page === '/' ? `${prefix}/` : `${prefix}${page}`)),
      ),
    );
  });

  test('nothing overflows horizontally at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const pathname of PUBLIC_PAGES) {
      await page.goto(pathname);
      await startApp(page);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      expect(await page.evaluate(() => document.documentElement.scrollWidth), pathname).toBeLessThanOrEqual(
        390,
      );
    }
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('#mobile-menu')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('the mobile menu opens on the first tap, before the app has started', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.locator('html[data-interactive]')).not.toBeAttached();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('#mobile-menu')).toBeVisible();
    await page.locator('#mobile-menu').getByRole('link', { name: 'FAQ' }).click();
    await expect(page.locator('#mobile-menu')).toBeHidden();
    await expectTopAt(page, '#faq', ANCHOR_OFFSET_PX);
  });

  test('the sign-in form paints from its HTML alone and starts its app on the first keystroke', async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/login');
    await page.waitForLoadState('networkidle');
    // The browser's own focus on the first field is not the visitor's: nothing of the app has loaded.
    await expect(page.getByLabel('Username')).toBeFocused();
    await expect(page.locator('html[data-interactive]')).not.toBeAttached();
    expect(scripts.filter((script) => /start-app|altcha/.test(script))).toEqual([]);

    await page.keyboard.type('someone');
    await expect(page.locator('html[data-interactive]')).toBeAttached();
    await expect(page.getByLabel('Username')).toHaveValue('someone');
    await expect(page.getByLabel('Username')).toBeFocused();
    await expect(page.locator('altcha-widget input[type="checkbox"]')).toBeVisible();
  });

  test('a form sent before the app runs is held, never submitted by the browser, then handled', async ({
    page,
  }) => {
    // The app's chunk waits at a gate, so the page stays plain HTML for as long as the test needs.
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    await page.route('**/assets/start-app-*.js', async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel('Username').fill('someone');
    await page.getByLabel('Password', { exact: true }).fill('a-secret-password');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await expect(page.locator('html[data-interactive]')).not.toBeAttached();
    expect(page.url()).not.toContain('a-secret-password');

    openGate();
    await expect(page.getByRole('alert')).toHaveText('Please verify that you are not a robot.');
    expect(page.url()).toMatch(/\/login$/);
  });

  test('no request leaves the page origin, and the app starts without errors', { tag: '@smoke' }, async ({
    page,
    baseURL,
  }) => {
    const origin = new URL(baseURL!).origin;
    const foreign: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:')
        foreign.push(request.url());
    });
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    for (const pathname of PUBLIC_PAGES) {
      await page.goto(pathname);
      await startApp(page);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForLoadState('networkidle');
    }
    await page.goto('/');
    await page.locator('footer').getByRole('button', { name: 'Terms of Service' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });
});
