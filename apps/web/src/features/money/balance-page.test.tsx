import { type LedgerEntryView, ledgerResponseSchema, moneyMessages, transactionId } from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, route } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BalancePage } from './balance-page';

function entry(id: number, overrides: Partial<LedgerEntryView> = {}): LedgerEntryView {
  return {
    id,
    transaction_id: transactionId(id),
    created_at: '2026-11-20T10:15:00.000Z',
    kind: 'topup',
    amount: 5,
    balance_after: id * 5,
    reference: { kind: 'topup', id },
    refund_reason: null,
    ...overrides,
  };
}

let api: FakeApi;

/** The ledger endpoint: entries 4 and 3 on the first page, 2 and 1 before entry 3. */
function createLedgerApi() {
  return createFakeApi([
    route('GET /api/dashboard/ledger', ({ query }) => {
      const older = query.get('before') === '3';
      return ok(ledgerResponseSchema, {
        success: true,
        balance: 20,
        reserved: 1.5,
        entries: older
          ? [entry(2), entry(1)]
          : [
              entry(4, {
                kind: 'refund',
                amount: 1.5,
                reference: { kind: 'number', id: 12 },
                refund_reason: 'no_code',
              }),
              entry(3),
            ],
        next_before: older ? null : 3,
      });
    }),
  ]);
}

function renderPage() {
  renderWithProviders([{ path: '/dashboard/balance', Component: BalancePage }], { at: '/dashboard/balance' });
}

beforeEach(() => {
  api = createLedgerApi();
  vi.stubGlobal('fetch', api.fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('BalancePage', () => {
  it('shows the balance, the reserved money and each entry with its ID, reason and order, then older pages by keyset', async () => {
    renderPage();
    const summary = await screen.findByRole('region', { name: 'Balance summary' });
    expect(await within(summary).findByText('$20.00')).toBeInTheDocument();
    expect(within(summary).getByText('$1.50')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Transactions' });
    const refund = within(table).getAllByRole('row')[1]!;
    expect(within(refund).getAllByText('TX-000004').length).toBeGreaterThan(0);
    expect(within(refund).getByText('No code in 20 minutes')).toBeInTheDocument();
    expect(within(refund).getByRole('link', { name: 'Number #12' })).toHaveAttribute(
      'href',
      '/dashboard/numbers?order=12',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Show older transactions' }));
    expect(await within(table).findAllByText('TX-000001')).not.toHaveLength(0);
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    expect(api.calls.at(-1)!.query.get('before')).toBe('3');
    expect(screen.queryByRole('button', { name: 'Show older transactions' })).not.toBeInTheDocument();
  });

  it('sends the date filters as UTC days, and refuses a range that ends before it starts without asking', async () => {
    renderPage();
    await screen.findByRole('table', { name: 'Transactions' });
    await userEvent.type(screen.getByLabelText('From (UTC)'), '2026-11-02');
    expect(api.calls.at(-1)!.query.get('from')).toBe('2026-11-02');
    const asked = api.calls.length;
    await userEvent.type(screen.getByLabelText('To (UTC)'), '2026-11-01');
    expect(await screen.findByText(moneyMessages.badDateRange)).toBeInTheDocument();
    expect(api.calls.slice(asked).some((call) => call.query.get('to') === '2026-11-01')).toBe(false);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });
});
