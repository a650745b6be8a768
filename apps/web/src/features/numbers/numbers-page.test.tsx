import type { NumbersResponse, PurchasedNumber } from '@simcode/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NumbersPage } from './numbers-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
// Flags and brand icons come from the build's virtual modules, which tests do not have.
vi.mock('@/components/country-flag', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/country-flag')>()),
  CountryFlag: () => null,
}));
vi.mock('@/components/service-icon', () => ({ ServiceIcon: () => null }));

function number(id: number, status: PurchasedNumber['status'], service = 'Telegram'): PurchasedNumber {
  return {
    id,
    number_id: `act-${id}`,
    country: 'US',
    country_name: 'United States',
    service: service === 'Telegram' ? 'tg' : 'wa',
    service_name: service,
    operator: 'any',
    number: '12025550100',
    price: 0.5,
    created_at: '2026-11-20T12:00:00.000Z',
    expires_at: '2026-11-20T12:20:00.000Z',
    status,
    status_reason: null,
    code: null,
    sms: [],
  };
}

let requests: URL[];

/** One live number; the history is 3 then 2, older than number 3. */
const fakeFetch = vi.fn(async (input: RequestInfo | URL) => {
  const url = new URL(String(input), 'http://app.test');
  requests.push(url);
  let body: NumbersResponse | { success: true; status: string; code: null };
  if (url.pathname.startsWith('/api/dashboard/number-status/')) {
    body = { success: true, status: 'STATUS_WAIT_CODE', code: null };
  } else if (url.searchParams.get('state') === 'live') {
    body = { success: true, numbers: [number(9, 'waiting')], next_before: null };
  } else if (url.searchParams.get('before') === '3') {
    body = { success: true, numbers: [number(2, 'expired', 'WhatsApp')], next_before: null };
  } else {
    body = { success: true, numbers: [number(3, 'canceled')], next_before: 3 };
  }
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
});

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/dashboard/numbers', Component: NumbersPage }], {
    initialEntries: ['/dashboard/numbers'],
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

const historyRequests = () => requests.filter((url) => url.searchParams.get('state') === 'ended');

describe('NumbersPage', () => {
  it('shows live numbers first, then the history the server filters, a keyset page at a time', async () => {
    renderPage();
    const active = await screen.findByRole('region', { name: 'Active' });
    expect(await within(active).findByLabelText('Telegram number in United States')).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'History' });
    expect(await within(history).findAllByLabelText('Telegram number in United States')).toHaveLength(1);

    await userEvent.click(within(history).getByRole('button', { name: 'Show older numbers' }));
    expect(await within(history).findByLabelText('WhatsApp number in United States')).toBeInTheDocument();
    expect(historyRequests().at(-1)!.searchParams.get('before')).toBe('3');

    // The date goes to the server; the browser never narrows a list itself.
    await userEvent.type(within(history).getByLabelText('From (UTC)'), '2026-11-01');
    expect(historyRequests().at(-1)!.searchParams.get('from')).toBe('2026-11-01');
    expect(historyRequests().at(-1)!.searchParams.has('before')).toBe(false);
  });
});
