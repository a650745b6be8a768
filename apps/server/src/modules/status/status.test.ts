import { isAppPath, type StatusAnswer } from '@simcode/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { fundUser } from '../../../test/support/money';
import { anOffer, createListeningTestApp, simulatorControl } from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { auditLog, mailQueue, statusChecks } from '../../db/schema';
import { renderMail } from '../mail/templates';

// Issue 30: the status page. A supplier fault injected through the simulator's control API opens an
// incident by itself and clearing it closes it, as the page's JSON, its feed and the subscribers' mail show.

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

const MINUTE_MS = 60_000;
const OPEN_AFTER = 3;
const CLOSE_AFTER = 2;

/** The checks of the next `minutes` minutes, as the job runs them once a minute. */
async function runMinutes(minutes: number) {
  for (let minute = 0; minute < minutes; minute += 1) {
    t.clock.advance(MINUTE_MS);
    await t.ctx.status.runMinute();
  }
}

async function status(): Promise<StatusAnswer> {
  // Past the answer's cache: what a visitor sees once the job's minute is over.
  const response = await t.app.inject({ url: '/api/v1/status' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function mailsOf(user: TestUser) {
  const rows = await t.ctx.database.db
    .select()
    .from(mailQueue)
    .where(and(eq(mailQueue.userId, user.id), eq(mailQueue.template, 'status_incident')))
    .orderBy(mailQueue.id);
  return rows.map((row) => row.payload as { event: string; component: string; incidentId: number });
}

async function subscribe(user: TestUser) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/status/subscription',
    headers: user.headers,
    payload: { subscribed: true },
  });
  expect(response.json()).toEqual({ success: true, subscribed: true });
}

describe('the status page', () => {
  it('opens an incident when a supplier fails its checks, and closes it when the fault is cleared', async () => {
    t = await createListeningTestApp({
      STATUS_OPEN_AFTER_MINUTES: String(OPEN_AFTER),
      STATUS_CLOSE_AFTER_MINUTES: String(CLOSE_AFTER),
    });
    const subscriber = await createUser(t);
    const bystander = await createUser(t);
    await subscribe(subscriber);

    await runMinutes(1);
    let answer = await status();
    // The site is checked when this instance serves the built web app.
    const served = answer.components.filter((component) => component.id !== 'web');
    expect(served.map((component) => [component.id, component.name, component.state])).toEqual([
      ['api', 'API', 'operational'],
      ['payments', 'Payments', 'operational'],
      ['supplier-a', 'Supplier A', 'operational'],
    ]);
    expect(answer.open_incidents).toEqual([]);

    // Every call to the supplier answers an nginx 502 page until the fault is cleared.
    await simulatorControl(t, 'fault', { broken: 'html502', times: 0 });
    await runMinutes(OPEN_AFTER - 1);
    t.clock.advance(20_000);
    expect((await status()).open_incidents).toEqual([]);
    await runMinutes(1);

    answer = await status();
    const supplier = answer.components.find((component) => component.id === 'supplier-a')!;
    expect(supplier.state).toBe('down');
    expect(supplier.days.at(-1)!.uptime).toBeLessThan(1);
    expect(answer.open_incidents).toHaveLength(1);
    const [incident] = answer.open_incidents;
    expect(incident).toMatchObject({
      component: 'supplier-a',
      component_name: 'Supplier A',
      origin: 'automatic',
    });
    expect(incident!.title.en).toBe('Problems with Supplier A');
    expect(incident!.updates.map((update) => update.phase)).toEqual(['investigating']);
    // The supplier's own name appears nowhere public.
    expect(JSON.stringify(answer)).not.toContain('sim-a');

    const feed = await t.app.inject({ url: '/status/feed.atom' });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toContain('application/atom+xml');
    expect(feed.body).toContain(`#incident-${incident!.id}-update-1</id>`);
    expect(feed.body).toContain('Problems with Supplier A (Supplier A): Investigating');
    // Each language has its feed, with the texts written for it and the page of that language.
    const russianFeed = await t.app.inject({ url: '/ru/status/feed.atom' });
    expect(russianFeed.statusCode).toBe(200);
    expect(russianFeed.body).toContain('xml:lang="ru"');
    expect(russianFeed.body).toContain('Проблемы: Supplier A (Supplier A): Разбираемся');
    expect(russianFeed.body).toContain(`/ru/status#incident-${incident!.id}-update-1</id>`);
    expect((await t.app.inject({ url: '/zh/status/feed.atom' })).body).toContain('Supplier A 出现问题');
    // The page is the web app's (its browser spec reads this incident's kind on it); every language has it.
    expect(['/status', '/ru/status', '/zh/status'].every(isAppPath)).toBe(true);

    expect(await mailsOf(subscriber)).toEqual([
      expect.objectContaining({ event: 'opened', component: 'Supplier A', incidentId: incident!.id }),
    ]);
    expect(await mailsOf(bystander)).toEqual([]);

    // A supplier still failing opens no second incident.
    await runMinutes(2);
    expect((await status()).open_incidents).toHaveLength(1);

    await simulatorControl(t, 'clear-faults');
    await runMinutes(CLOSE_AFTER);
    answer = await status();
    expect(answer.open_incidents).toEqual([]);
    expect(answer.past_incidents).toHaveLength(1);
    expect(answer.past_incidents[0]!.updates.map((update) => update.phase)).toEqual([
      'investigating',
      'resolved',
    ]);
    expect(answer.components.find((component) => component.id === 'supplier-a')!.state).toBe('operational');
    expect((await mailsOf(subscriber)).map((mail) => mail.event)).toEqual(['opened', 'resolved']);
    const resolvedFeed = await t.app.inject({ url: '/status/feed.atom' });
    expect(resolvedFeed.body).toContain(`#incident-${incident!.id}-update-2</id>`);
  });

  it('opens an incident for a supplier whose purchases fail though its catalog answers, and closes it after', async () => {
    t = await createListeningTestApp({
      STATUS_OPEN_AFTER_MINUTES: String(OPEN_AFTER),
      STATUS_CLOSE_AFTER_MINUTES: String(CLOSE_AFTER),
    });
    const buyer = await createUser(t);
    await fundUser(t.ctx.database, buyer.id, 10_000);
    const offer = anOffer(t);
    // The supplier's purchase call breaks; its catalog call, the check's own, still answers.
    await simulatorControl(t, 'fault', { action: 'getNumberV2', broken: 'html502', times: 0 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/dashboard/buy-number',
        headers: buyer.headers,
        payload: { countryID: offer.countryId, service: offer.service },
      });
      expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400);
    }

    await runMinutes(OPEN_AFTER);
    const [lastCheck] = await t.ctx.database.db
      .select()
      .from(statusChecks)
      .where(eq(statusChecks.component, 'supplier-a'))
      .orderBy(desc(statusChecks.minute))
      .limit(1);
    expect(lastCheck).toMatchObject({
      ok: false,
      error: '3 of 3 purchase calls failed in the last 10 minutes',
    });
    const [incident] = (await status()).open_incidents;
    expect(incident).toMatchObject({ component: 'supplier-a', origin: 'automatic' });

    // The failed calls leave the window once the fault is gone (no purchase came since): the check passes.
    await simulatorControl(t, 'clear-faults');
    await runMinutes(10 - OPEN_AFTER + CLOSE_AFTER);
    const answer = await status();
    expect(answer.open_incidents).toEqual([]);
    expect(answer.past_incidents.map((past) => past.id)).toEqual([incident!.id]);
  });

  it('lets administrators open, update and close an incident, audited, with a notice in the reader’s language', async () => {
    t = await createListeningTestApp();
    const admin = await createUser(t, { admin: true });
    const subscriber = await createUser(t);
    await subscribe(subscriber);
    const texts = (word: string) => ({ en: `${word} en`, ru: `${word} ru`, zh: `${word} zh` });

    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/incidents',
      headers: subscriber.headers,
      payload: {
        component: 'payments',
        title: texts('Slow'),
        text: texts('Looking'),
        reason: 'top-ups slow',
      },
    });
    expect(refused.statusCode).toBe(403);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/admin/incidents',
      headers: admin.headers,
      payload: { component: 'sim-a', title: texts('Slow'), text: texts('Looking'), reason: 'top-ups slow' },
    });
    expect(unknown.statusCode).toBe(404);

    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/admin/incidents',
      headers: admin.headers,
      payload: {
        component: 'payments',
        title: texts('Slow'),
        text: texts('Looking'),
        reason: 'top-ups slow',
      },
    });
    expect(opened.statusCode).toBe(200);
    const { id } = opened.json() as { id: number };
    const updated = await t.app.inject({
      method: 'POST',
      url: `/api/admin/incidents/${id}/updates`,
      headers: admin.headers,
      payload: { phase: 'identified', text: texts('Found'), reason: 'cause known' },
    });
    expect(updated.statusCode).toBe(200);
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/incidents/${id}/resolve`,
      headers: admin.headers,
      payload: { text: texts('Fixed'), reason: 'fixed' },
    });
    expect(resolved.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/incidents/${id}/resolve`,
      headers: admin.headers,
      payload: { text: texts('Fixed'), reason: 'fixed' },
    });
    expect(again.statusCode).toBe(404);

    const [incident] = (await status()).past_incidents;
    expect(incident).toMatchObject({
      id,
      origin: 'manual',
      component_name: 'Payments',
      title: texts('Slow'),
    });
    expect(incident!.updates.map((update) => [update.phase, update.text.zh])).toEqual([
      ['investigating', 'Looking zh'],
      ['identified', 'Found zh'],
      ['resolved', 'Fixed zh'],
    ]);
    const audit = await t.ctx.database.db.select().from(auditLog).where(eq(auditLog.objectType, 'incident'));
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      'incident.open',
      'incident.resolve',
      'incident.update',
    ]);

    const mails = await mailsOf(subscriber);
    expect(mails.map((mail) => mail.event)).toEqual(['opened', 'resolved']);
    const russian = renderMail('status_incident', mails[1] as never, {
      appName: 'SimCode',
      publicUrl: 'https://simcode.test',
      language: 'ru',
    });
    expect(russian.subject).toBe('SimCode: решено: Slow ru');
    expect(russian.text).toContain('Fixed ru');
    expect(russian.text).toContain('https://simcode.test/ru/status');
  });
});
