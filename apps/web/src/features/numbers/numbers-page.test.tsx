import { numberStatusResponseSchema, numbersResponseSchema, type PurchasedNumber } from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, route } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

let api: FakeApi;

/** One live number; the history is 3 then 2, older than number 3. */
function createNumbersApi() {
  return createFakeApi([
    route(/^GET \/api\/dashboard\/number-status\/(.+)$/, () =>
      ok(numberStatusResponseSchema, { success: true, status: 'STATUS_WAIT_CODE', code: null }),
    ),
    route('GET /api/dashboard/numbers', ({ query }) => {
      if (query.get('state') === 'live') {
        return ok(numbersResponseSchema, {
          success: true,
          numbers: [number(9, 'waiting')],
          next_before: null,
        });
      }
      if (query.get('before') === '3') {
        return ok(numbersResponseSchema, {
          success: true,
          numbers: [number(2, 'expired', 'WhatsApp')],
          next_before: null,
        });
      }
      return ok(numbersResponseSchema, { success: true, numbers: [number(3, 'canceled')], next_before: 3 });
    }),
  ]);
}

function renderPage() {
  renderWithProviders([{ path: '/dashboard/numbers', Component: NumbersPage }], { at: '/dashboard/numbers' });
}

beforeEach(() => {
  api = createNumbersApi();
  vi.stubGlobal('fetch', api.fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const historyRequests = () => api.calls.filter((call) => call.query.get('state') === 'ended');

describe('NumbersPage', () => {
  it('shows live numbers first, then the history the server filters, a keyset page at a time', async () => {
    renderPage();
    const active = await screen.findByRole('region', { name: 'Active' });
    expect(await within(active).findByLabelText('Telegram number in United States')).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'History' });
    expect(await within(history).findAllByLabelText('Telegram number in United States')).toHaveLength(1);

    await userEvent.click(within(history).getByRole('button', { name: 'Show older numbers' }));
    expect(await within(history).findByLabelText('WhatsApp number in United States')).toBeInTheDocument();
    expect(historyRequests().at(-1)!.query.get('before')).toBe('3');

    // The date goes to the server; the browser never narrows a list itself.
    await userEvent.type(within(history).getByLabelText('From (UTC)'), '2026-11-01');
    expect(historyRequests().at(-1)!.query.get('from')).toBe('2026-11-01');
    expect(historyRequests().at(-1)!.query.has('before')).toBe(false);
  });
});
