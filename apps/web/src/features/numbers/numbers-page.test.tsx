import {
  buyingMessages,
  buyNumberResponseSchema,
  numberMessages,
  numberStatusResponseSchema,
  numbersResponseSchema,
  type PurchasedNumber,
  reportProblemResponseSchema,
} from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, route } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
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
    const live = await within(active).findByLabelText('Telegram number in United States');
    // A live number offers the national number to copy as well, for forms with a separate country field.
    expect(
      within(live).getByRole('button', { name: 'Copy without country code: 2025550100' }),
    ).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'History' });
    const ended = await within(history).findAllByLabelText('Telegram number in United States');
    expect(ended).toHaveLength(1);
    expect(within(ended[0]!).queryByRole('button', { name: /without country code/ })).toBeNull();

    await userEvent.click(within(history).getByRole('button', { name: 'Show older numbers' }));
    expect(await within(history).findByLabelText('WhatsApp number in United States')).toBeInTheDocument();
    expect(historyRequests().at(-1)!.query.get('before')).toBe('3');

    // The date goes to the server; the browser never narrows a list itself.
    await userEvent.type(within(history).getByLabelText('From (UTC)'), '2026-11-01');
    expect(historyRequests().at(-1)!.query.get('from')).toBe('2026-11-01');
    expect(historyRequests().at(-1)!.query.has('before')).toBe(false);
  });
});

describe('a number whose code arrived', () => {
  it('can be finished: one POST, and the toast says the code stays in the history', async () => {
    const received = { ...number(11, 'received'), code: '424242' };
    api = createFakeApi([
      route(/^GET \/api\/dashboard\/number-status\/(.+)$/, () =>
        ok(numberStatusResponseSchema, { success: true, status: 'STATUS_OK:424242', code: '424242' }),
      ),
      route('GET /api/dashboard/numbers', ({ query }) =>
        ok(numbersResponseSchema, {
          success: true,
          numbers: query.get('state') === 'live' ? [received] : [],
          next_before: null,
        }),
      ),
      route('POST /api/dashboard/numbers/11/finish', () =>
        ok(buyNumberResponseSchema, { success: true, number: { ...received, status: 'completed' } }),
      ),
    ]);
    vi.stubGlobal('fetch', api.fetch);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Finish order #11' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(numberMessages.finished));
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/dashboard/numbers/11/finish',
    ]);
  });
});

/** A waiting number whose supplier allows a cancel in `cancelOpensInMs`. */
function waitingUntil(cancelOpensInMs: number): PurchasedNumber {
  const now = Date.now();
  return {
    ...number(12, 'waiting'),
    created_at: new Date(now - 1000).toISOString(),
    expires_at: new Date(now + 19 * 60_000).toISOString(),
    cancel_available_at: new Date(now + cancelOpensInMs).toISOString(),
  };
}

/** The API with one live number, `waiting`, whose "already used" report gives it back. */
function serve(waiting: PurchasedNumber) {
  api = createFakeApi([
    route(/^GET \/api\/dashboard\/number-status\/(.+)$/, () =>
      ok(numberStatusResponseSchema, { success: true, status: 'STATUS_WAIT_CODE', code: null }),
    ),
    route('GET /api/dashboard/numbers', ({ query }) =>
      ok(numbersResponseSchema, {
        success: true,
        numbers: query.get('state') === 'live' ? [waiting] : [],
        next_before: null,
      }),
    ),
    route('POST /api/dashboard/numbers/12/report', () =>
      ok(reportProblemResponseSchema, {
        success: true,
        refunded: true,
        number: { ...waiting, status: 'canceled', cancel_available_at: null },
        message: buyingMessages.numberUsedRefunded,
      }),
    ),
  ]);
  vi.stubGlobal('fetch', api.fetch);
}

describe("a number within its supplier's no-cancel window", () => {
  it('keeps Cancel and Replace off and says when they open, and offers no refund for "already used" yet', async () => {
    serve(waitingUntil(58_000));
    renderPage();
    const active = await screen.findByRole('region', { name: 'Active' });
    expect(await within(active).findByTestId('cancel-opens-in')).toHaveTextContent(
      /^Cancel available in 00:5\d$/,
    );
    expect(within(active).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(active).getByRole('button', { name: 'Replace' })).toBeDisabled();

    const user = userEvent.setup();
    await user.click(within(active).getByRole('button', { name: 'Report a problem with order #12' }));
    await user.click(screen.getByRole('radio', { name: 'The number was already used on the service' }));
    expect(screen.getByText(/The supplier allows this in 00:5\d\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Give back and refund' })).toBeDisabled();
  });

  it('gives an "already used" number back in one step once the window is over, without a ticket', async () => {
    serve(waitingUntil(-1000));
    renderPage();
    const active = await screen.findByRole('region', { name: 'Active' });
    expect(await within(active).findByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(within(active).queryByTestId('cancel-opens-in')).toBeNull();

    const user = userEvent.setup();
    await user.click(within(active).getByRole('button', { name: 'Report a problem with order #12' }));
    await user.click(screen.getByRole('radio', { name: 'The number was already used on the service' }));
    await user.click(screen.getByRole('button', { name: 'Give back and refund' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(buyingMessages.numberUsedRefunded));
    const report = api.calls.find((call) => call.method === 'POST');
    expect(report?.path).toBe('/api/dashboard/numbers/12/report');
  });
});

describe('the live numbers as a table', () => {
  it('shows a row per number with the same actions as its card, and remembers the choice', async () => {
    serve(waitingUntil(30_000));
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Table' }));
    expect(screen.getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
    const table = screen.getByRole('table', { name: 'Active numbers' });
    const [row] = within(table).getAllByTestId('live-row');
    expect(row).toHaveTextContent('Telegram');
    expect(row).toHaveTextContent('United States');
    expect(within(row!).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(row!).getByRole('button', { name: 'Cancel' })).toHaveAttribute(
      'title',
      expect.stringMatching(/^Cancel available in 00:\d\d$/),
    );
    expect(localStorage.getItem('numbers-live-view')).toBe('table');
  });
});
