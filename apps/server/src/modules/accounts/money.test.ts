import {
  countryById,
  LEDGER_CSV_COLUMNS,
  type LedgerEntryView,
  serviceDisplayName,
  transactionId,
} from '@simcode/contract';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../test/support/app';
import { testDatabase } from '../../../test/support/database';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { anOffer, createListeningTestApp } from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { queryRows } from '../../db/client';
import { balanceOf } from './ledger';
import { centsToDecimalText } from './money-service';

/** 10,000 entries paged, exported and parsed: seconds on an idle machine; a bound, never an assertion. */
const LONG_TEST_MS = 180_000;

let t: TestApp;
// Opening and migrating the worker's database is a hook's work, not a test's.
beforeAll(async () => {
  await testDatabase();
});
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const get = (user: TestUser | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });

/** Every page of the ledger with these filters, following `next_before` to the end. */
async function allPages(user: TestUser, filters: string, limit = 200) {
  const entries: LedgerEntryView[] = [];
  let before: number | null = null;
  let pages = 0;
  do {
    const response = await get(
      user,
      `/api/dashboard/ledger?limit=${limit}${filters}${before === null ? '' : `&before=${before}`}`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    entries.push(...body.entries);
    before = body.next_before;
    pages += 1;
  } while (before !== null);
  return { entries, pages };
}

/** RFC 4180, read independently of the writer: quoted fields, doubled quotes, CRLF line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += char;
  }
  expect(field, 'the file ends with a line break').toBe('');
  return rows;
}

/**
 * Appends `count` entries for a user in one SQL statement through the ledger's own database function, so
 * every entry's balance-after and the account's balance stay exactly as the real paths leave them.
 */
async function seedEntries(userId: number, count: number) {
  await queryRows(
    t.ctx.database.db,
    sql`select simcode_apply_ledger_change(${userId},
          case when g % 4 = 0 then -300 else 1000 + g % 7 end,
          (array['purchase', 'topup', 'refund', 'adjustment'])[g % 4 + 1], 'test', g::text,
          ${`seed:${userId}:`} || g, null)
        from generate_series(1, ${count}) as g`,
  );
}

describe('GET /api/dashboard/ledger and /ledger.csv', () => {
  it('answers a visitor 401 and bad input 400 in the one error shape', async () => {
    t = await createTestApp();
    const user = await createUser(t);
    for (const url of [
      '/api/dashboard/ledger',
      '/api/dashboard/ledger.csv',
      '/api/dashboard/numbers/1/money',
      '/api/dashboard/rents/1/money',
    ]) {
      const response = await get(null, url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toMatchObject({ success: false, code: 'unauthorized' });
    }
    for (const query of [
      'kind=bonus',
      'from=2026-02-30',
      'from=2026-1-5',
      'to=yesterday',
      'from=2026-11-02&to=2026-11-01',
      'limit=0',
      'limit=201',
      'before=-1',
      'before=1e3',
      'offset=100',
    ]) {
      for (const path of ['/api/dashboard/ledger', '/api/dashboard/ledger.csv']) {
        if (path.endsWith('.csv') && /limit|before/.test(query)) continue;
        // offset=… is refused as an unknown parameter: these lists page by keyset only.
        const response = await get(user, `${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        const body = response.json();
        expect(body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
      }
    }
    const backwards = await get(user, '/api/dashboard/ledger?from=2026-11-02&to=2026-11-01');
    expect(backwards.json().error).toContain('The start date must not be after the end date.');
  });

  it(
    'pages 10,000 entries by keyset, each exactly once, their amounts summing to the balance, and exports the same as CSV',
    async () => {
      t = await createTestApp();
      const user = await createUser(t);
      const other = await createUser(t);
      await fundUser(t.ctx.database, other.id, 777);
      await seedEntries(user.id, 10_000);
      const balanceCents = await balanceOf(t.ctx.database.db, user.id);

      const { entries, pages } = await allPages(user, '');
      expect(pages).toBe(50);
      expect(new Set(entries.map((entry) => entry.id)).size).toBe(10_000);
      const sumCents = entries.reduce((sum, entry) => sum + Math.round(entry.amount * 100), 0);
      expect(sumCents).toBe(balanceCents);
      // Newest first: each entry's balance-after is the next older one's plus its own amount.
      expect(Math.round(entries[0]!.balance_after * 100)).toBe(balanceCents);
      for (let index = 0; index < entries.length - 1; index += 1) {
        const [newer, older] = [entries[index]!, entries[index + 1]!];
        expect(older.id).toBeLessThan(newer.id);
        expect(Math.round(newer.balance_after * 100)).toBe(
          Math.round(older.balance_after * 100) + Math.round(newer.amount * 100),
        );
      }
      expect(Math.round(entries.at(-1)!.balance_after * 100)).toBe(Math.round(entries.at(-1)!.amount * 100));
      expect(entries[0]!.transaction_id).toBe(transactionId(entries[0]!.id));

      const csv = await get(user, '/api/dashboard/ledger.csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toMatch(
        /^attachment; filename="simcode-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const [header, ...rows] = parseCsv(csv.body);
      expect(header).toEqual([...LEDGER_CSV_COLUMNS]);
      expect(rows).toEqual(
        entries.map((entry) => [
          entry.transaction_id,
          entry.created_at,
          entry.kind,
          centsToDecimalText(Math.round(entry.amount * 100)),
          centsToDecimalText(Math.round(entry.balance_after * 100)),
          entry.reference?.kind ?? '',
          entry.reference ? String(entry.reference.id) : '',
          entry.refund_reason ?? '',
          // Seeded entries are about no real order: nothing to name.
          '',
          '',
          '',
        ]),
      );

      // The other user's entry is in neither.
      const otherPage = (await get(other, '/api/dashboard/ledger')).json();
      expect(otherPage.entries).toHaveLength(1);
      expect(csv.body).not.toContain(otherPage.entries[0].transaction_id);
      expect(entries.map((entry) => entry.id)).not.toContain(otherPage.entries[0].id);
      expect(otherPage).toMatchObject({ balance: 7.77, reserved: 0, next_before: null });
    },
    LONG_TEST_MS,
  );

  it('filters by kind and by UTC day, in pages and in the export alike', async () => {
    t = await createTestApp();
    const user = await createUser(t);
    await seedEntries(user.id, 40);
    const refunds = await allPages(user, '&kind=refund', 3);
    expect(refunds.entries).toHaveLength(10);
    expect(refunds.entries.every((entry) => entry.kind === 'refund')).toBe(true);
    const csvRows = parseCsv((await get(user, '/api/dashboard/ledger.csv?kind=refund')).body).slice(1);
    expect(csvRows.map((row) => row[0])).toEqual(refunds.entries.map((entry) => entry.transaction_id));

    const day = refunds.entries[0]!.created_at.slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await allPages(user, `&from=${day}&to=${day}`)).entries).toHaveLength(40);
    expect((await allPages(user, `&from=${next}`)).entries).toHaveLength(0);
    expect((await allPages(user, `&to=${day}&kind=purchase`)).entries).toHaveLength(10);
  });
});

describe('an order in the Money view', () => {
  it('shows a purchase and its refund with the reason, holds the price while live, and hides it from others', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const stranger = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: offer.countryId, service: offer.service },
    });
    expect(bought.statusCode).toBe(200);
    const orderId: number = bought.json().number.id;
    const live = (await get(user, '/api/dashboard/ledger')).json();
    expect(live.reserved).toBe(offer.priceCents / 100);
    expect(live.entries[0]).toMatchObject({
      kind: 'purchase',
      amount: -offer.priceCents / 100,
      balance_after: (1000 - offer.priceCents) / 100,
      reference: { kind: 'number', id: orderId },
      refund_reason: null,
    });

    t.clock.advance(2 * 60_000 + 1000);
    const canceled = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/numbers/${orderId}/cancel`,
      headers: user.headers,
    });
    expect(canceled.statusCode).toBe(200);
    const after = (await get(user, '/api/dashboard/ledger')).json();
    expect(after).toMatchObject({ balance: 10, reserved: 0 });
    expect(after.entries.map((entry: LedgerEntryView) => [entry.kind, entry.balance_after])).toEqual([
      ['refund', 10],
      ['purchase', (1000 - offer.priceCents) / 100],
      ['adjustment', 10],
    ]);
    expect(after.entries[0]).toMatchObject({
      reference: { kind: 'number', id: orderId },
      refund_reason: 'canceled_by_you',
    });

    // The statement names what each line is about: service, country and number, beside the order id.
    const [header, refundLine, purchaseLine] = parseCsv((await get(user, '/api/dashboard/ledger.csv')).body);
    const column = (name: string) => header!.indexOf(name);
    const phone = bought.json().number.number as string;
    for (const line of [refundLine!, purchaseLine!]) {
      expect(line[column('reference_id')]).toBe(String(orderId));
      expect(line[column('service')]).toBe(serviceDisplayName(offer.service));
      expect(line[column('country')]).toBe(countryById(offer.countryId)!.name);
      expect(line[column('phone')]!.replace('+', '')).toBe(phone.replace('+', ''));
    }

    const detail = await get(user, `/api/dashboard/numbers/${orderId}/money`);
    expect(detail.json()).toEqual({
      success: true,
      price: offer.priceCents / 100,
      refund_reason: 'canceled_by_you',
      entries: [after.entries[1], after.entries[0]],
    });
    for (const url of [`/api/dashboard/numbers/${orderId}/money`, '/api/dashboard/rents/1/money']) {
      const hidden = await get(stranger, url);
      expect(hidden.statusCode, url).toBe(404);
      expect(hidden.json()).toMatchObject({ success: false, code: 'not_found' });
    }
    expect((await get(stranger, '/api/dashboard/ledger')).json().entries).toEqual([]);
  });
  it("names a refund by support as such, on the order and in the ledger, not as the buyer's cancel", async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const admin = await createUser(t, { admin: true });
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: offer.countryId, service: offer.service },
    });
    const orderId: number = bought.json().number.id;
    const refunded = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/refund`,
      headers: admin.headers,
      payload: { reason: 'number never worked' },
    });
    expect(refunded.statusCode).toBe(200);
    const ledger = (await get(user, '/api/dashboard/ledger')).json();
    expect(ledger.entries[0]).toMatchObject({ kind: 'refund', refund_reason: 'refunded_by_support' });
    const detail = (await get(user, `/api/dashboard/numbers/${orderId}/money`)).json();
    expect(detail.refund_reason).toBe('refunded_by_support');
  });
});
