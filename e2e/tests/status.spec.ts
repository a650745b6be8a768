import { expect } from '@playwright/test';
import { adminToken } from '../support/admin';
import { signUpThroughApi, useSession } from '../support/auth';
import { axeViolations } from '../support/axe';
import { expectNoHorizontalOverflow } from '../support/layout';
import { test } from '../support/test';

// Issue 30: the status page. The checks that open incidents by themselves are the server tests' (they drive
// the clock); here an administrator's incident shows on the page, which must read well on a phone and a desk.

const texts = (words: string) => ({ en: `${words}`, ru: `${words} (ru)`, zh: `${words} (zh)` });
/** Each run's incidents by their own titles: the page keeps earlier runs' as past incidents. */
const run = () => Math.random().toString(36).slice(2, 7);

test('shows components, uptime and an open incident in three languages, at 390 and 1280 px, axe clean', async ({
  page,
}) => {
  const delayed = `Top-ups are delayed ${run()}`;
  const token = await adminToken(page.request);
  const headers = { authorization: `Bearer ${token}` };
  const opened = await page.request.post('/api/admin/incidents', {
    headers,
    data: {
      component: 'payments',
      title: texts(delayed),
      text: texts('Payments confirm more slowly than usual; balances are credited once they do.'),
      reason: 'browser test of the status page',
    },
  });
  expect(opened.ok(), await opened.text()).toBe(true);
  const { id } = (await opened.json()) as { id: number };

  try {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/status');
      await expect(page.getByRole('heading', { level: 1, name: 'Status' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Open incidents' })).toBeVisible();
      await expect(page.getByRole('heading', { name: delayed })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'API', exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Supplier A', exact: true })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Atom feed of incidents and updates' })).toHaveAttribute(
        'href',
        '/status/feed.atom',
      );
      await expectNoHorizontalOverflow(page);
      expect(await axeViolations(page, `/status at ${width}px`)).toEqual([]);
    }

    const feed = await page.request.get('/status/feed.atom');
    expect(feed.headers()['content-type']).toContain('application/atom+xml');
    expect(await feed.text()).toContain(delayed);

    await page.goto('/ru/status');
    await expect(page.getByRole('heading', { level: 1, name: 'Статус' })).toBeVisible();
    await expect(page.getByRole('heading', { name: `${delayed} (ru)` })).toBeVisible();
    await page.goto('/zh/status');
    await expect(page.getByRole('heading', { level: 1, name: '状态' })).toBeVisible();
    expect(await axeViolations(page, '/zh/status')).toEqual([]);

    // A signed-in visitor asks for e-mail, and the choice is kept.
    await signUpThroughApi(page, { at: '/status' });
    const mail = page.getByRole('checkbox', { name: 'E-mail me when an incident opens and when it closes' });
    await expect(mail).toBeEnabled();
    await mail.check();
    await page.reload();
    await expect(mail).toBeChecked();
    expect(await axeViolations(page, '/status signed in')).toEqual([]);

    // The footer links to it.
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Status' })).toHaveAttribute(
      'href',
      '/status',
    );
  } finally {
    await page.request.post(`/api/admin/incidents/${id}/resolve`, {
      headers,
      data: { text: texts('Top-ups are back to normal.'), reason: 'browser test done' },
    });
  }
});

test('an administrator opens, updates and closes an incident from the console, which shows on /status', async ({
  page,
}) => {
  const slow = `API answers slowly ${run()}`;
  await page.setViewportSize({ width: 390, height: 900 });
  await useSession(page.context(), await adminToken(page.request));
  await page.goto('/admin/incidents');
  await expect(page.getByRole('heading', { level: 1, name: 'Incidents' })).toBeVisible();

  const open = page.locator('form').first();
  await open.getByLabel('Component').selectOption({ label: 'API' });
  const title = open.getByRole('group', { name: 'Title' });
  await title.getByLabel('English').fill(slow);
  await title.getByLabel('Russian').fill(`${slow} (ru)`);
  await title.getByLabel('Chinese').fill('API 响应缓慢');
  const first = open.getByRole('group', { name: 'First update' });
  await first.getByLabel('English').fill('Some calls take seconds.');
  await first.getByLabel('Russian').fill('Некоторые вызовы идут секунды.');
  await first.getByLabel('Chinese').fill('部分调用需要数秒。');
  await open.getByLabel('Reason (audit log)').fill('seen in the latency graphs');
  await open.getByRole('button', { name: 'Open incident' }).click();
  await expect(page.getByRole('heading', { name: slow })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  expect(await axeViolations(page, '/admin/incidents at 390px')).toEqual([]);

  await page.goto('/ru/status');
  await expect(page.getByRole('heading', { name: `${slow} (ru)` })).toBeVisible();

  await page.goto('/admin/incidents');
  const card = page.getByRole('region', { name: slow });
  const resolve = card.locator('form').last();
  const final = resolve.getByRole('group', { name: 'Final update' });
  await final.getByLabel('English').fill('Back to normal.');
  await final.getByLabel('Russian').fill('Всё в норме.');
  await final.getByLabel('Chinese').fill('已恢复正常。');
  await resolve.getByLabel('Reason (audit log)').fill('latency normal again');
  await resolve.getByRole('button', { name: 'Close incident' }).click();
  await expect(card.getByText('Resolved', { exact: true }).first()).toBeVisible();

  await page.goto('/status');
  await expect(page.getByRole('heading', { name: 'Past incidents' })).toBeVisible();
  await expect(page.locator('li', { has: page.getByRole('heading', { name: slow }) })).toContainText(
    'Back to normal.',
  );
});
