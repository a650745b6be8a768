import { type LedgerEntryView, type LedgerResponse, moneyMessages, transactionId } from '@simcode/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
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

let requests: URL[];

/** The ledger endpoint: entries 4 and 3 on the first page, 2 and 1 before entry 3. */
const fakeFetch = vi.fn(async (input: RequestInfo | URL) => {
  const url = new URL(String(input), 'http://app.test');
  requests.push(url);
  const older = url.searchParams.get('before') === '3';
  const body: LedgerResponse = {
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
  };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
});

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/dashboard/balance', Component: BalancePage }], {
    initialEntries: ['/dashboard/balance'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  requests = [];
  vi.stubGlobal('fetch', fakeFetch);
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
    expect(requests.at(-1)!.searchParams.get('before')).toBe('3');
    expect(screen.queryByRole('button', { name: 'Show older transactions' })).not.toBeInTheDocument();
  });

  it('sends the date filters as UTC days, and refuses a range that ends before it starts without asking', async () => {
    renderPage();
    await screen.findByRole('table', { name: 'Transactions' });
    await userEvent.type(screen.getByLabelText('From (UTC)'), '2026-11-02');
    expect(requests.at(-1)!.searchParams.get('from')).toBe('2026-11-02');
    const asked = requests.length;
    await userEvent.type(screen.getByLabelText('To (UTC)'), '2026-11-01');
    expect(await screen.findByText(moneyMessages.badDateRange)).toBeInTheDocument();
    expect(requests.slice(asked).some((url) => url.searchParams.get('to') === '2026-11-01')).toBe(false);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });
});
