import {
  createInvoiceResponseSchema,
  PAYMENT_POPUP_HEIGHT_PX,
  PAYMENT_POPUP_WIDTH_PX,
  PAYMENT_SUCCESS_REDIRECT_MS,
  summaryResponseSchema,
  TOPUP_STATUS_POLL_MS,
  type Topup,
  type TopupStatus,
  topupMessages,
  topupMethodsResponseSchema,
  topupStatusResponseSchema,
  topupsResponseSchema,
} from '@simcode/contract';
import { type Answer, createFakeApi, type FakeApi, ok, refuse, route } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TopupPage } from './topup-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const INVOICE_URL = 'https://pay.example.test/pay/6f1c';
const ORDER_ID = 'top_abcdefghijklmnopqrstuvwx';

function topup(overrides: Partial<Topup>): Topup {
  return {
    order_id: 'top_old',
    amount: 10,
    credited_amount: null,
    status: 'PENDING',
    provider_status: 'check',
    created_at: '2026-03-02T10:15:00.000Z',
    expires_at: '2026-03-02T11:15:00.000Z',
    credited_at: null,
    url: null,
    ...overrides,
  };
}

/** What the fake answers: status answers in order, the last one repeating. */
interface TopupState {
  statuses: TopupStatus[];
  payments: Topup[];
  createAnswer: Answer;
}

let state: TopupState;
let api: FakeApi;

/** The four endpoints the page uses. */
function createTopupApi() {
  return createFakeApi([
    route('GET /api/topup/payments', () =>
      ok(topupsResponseSchema, {
        success: true,
        payments: state.payments,
        limits: { min_amount: 5, max_amount: 10_000 },
      }),
    ),
    route('POST /api/topup/cryptomus/create-invoice', () => state.createAnswer),
    route('GET /api/topup/cryptomus/status', () => {
      const status = state.statuses.length > 1 ? state.statuses.shift()! : state.statuses[0]!;
      return ok(topupStatusResponseSchema, { success: true, status });
    }),
    route('GET /api/dashboard/summary', () =>
      ok(summaryResponseSchema, {
        success: true,
        balance: 3.5,
        totalNumbers: 0,
        totalOrders: 0,
        totalCountries: 180,
        liveOneTime: 0,
        liveRented: 0,
      }),
    ),
  ]);
}

const statusCalls = () => api.calls.filter((call) => call.path === '/api/topup/cryptomus/status').length;

interface FakePopup {
  closed: boolean;
  opener: unknown;
  location: { href: string };
  document: Document;
  close: ReturnType<typeof vi.fn>;
}

function fakePopup(): FakePopup {
  const popup: FakePopup = {
    closed: false,
    opener: window,
    location: { href: 'about:blank' },
    document: document.implementation.createHTMLDocument('popup'),
    close: vi.fn(() => {
      popup.closed = true;
    }),
  };
  return popup;
}

function renderPage(initialEntry = '/dashboard/topup') {
  const { router } = renderWithProviders(
    [
      { path: '/dashboard/topup', Component: TopupPage },
      { path: '/dashboard', element: <h1>Dashboard page</h1> },
      { path: '/dashboard/tickets', element: <h1>Support page</h1> },
    ],
    { at: initialEntry },
  );
  return { router, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

const amountInput = () => screen.getByLabelText('Amount (USD)');
const depositButton = () => screen.getByRole('button', { name: /^Deposit/ });

beforeEach(() => {
  // Timers are fake but keep flowing, so the page's 4 s polling is stepped through without waiting.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  state = {
    statuses: ['PENDING'],
    payments: [],
    createAnswer: ok(createInvoiceResponseSchema, {
      success: true,
      url: INVOICE_URL,
      order_id: ORDER_ID,
      provider: 'cryptomus',
    }),
  };
  api = createTopupApi();
  vi.stubGlobal('fetch', api.fetch);
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the amount', () => {
  it.each([
    ['', topupMessages.minimum],
    ['4.99', topupMessages.minimum],
    ['-10', topupMessages.minimum],
    ['12.345', topupMessages.tooManyDecimals],
    ['10000.01', 'Maximum top up is $10,000.00'],
  ])('%j shows "%s", opens nothing and creates nothing', async (typed, text) => {
    const open = vi.spyOn(window, 'open');
    const { user } = renderPage();
    await screen.findByText('No top-ups yet');
    if (typed) await user.type(amountInput(), typed);
    await user.click(depositButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(amountInput()).toHaveAttribute('aria-invalid', 'true');
    expect(open).not.toHaveBeenCalled();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('takes a quick amount, steps by cents, and names the amount on the button', async () => {
    const { user } = renderPage();
    expect(amountInput()).toHaveAttribute('step', '0.01');
    await user.click(screen.getByRole('button', { name: '$25' }));
    expect(amountInput()).toHaveValue(25);
    expect(screen.getByRole('button', { name: '$25' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: '$10' })).toHaveAttribute('aria-pressed', 'false');
    expect(depositButton()).toHaveTextContent('Deposit $25.00');
  });
});

describe('payment methods', () => {
  const usdt = { currency: 'USDT', network: 'TRON', min_amount: '1', fee_percent: '0.5' };

  it('offers every provider that answers with its minimums and fees, and pays through the chosen one', async () => {
    const listed = [
      {
        provider: 'cryptomus',
        kind: 'cryptomus',
        methods: [{ ...usdt, min_amount: '1.00', fee_percent: '2.00' }],
      },
      { provider: 'nowpayments', kind: 'nowpayments', methods: [usdt] },
    ];
    api = createFakeApi([
      route('GET /api/topup/methods', () =>
        ok(topupMethodsResponseSchema, { success: true, providers: listed }),
      ),
    ]);
    const fallback = createTopupApi();
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(String(input), 'http://app.test').pathname === '/api/topup/methods'
        ? api.fetch(input, init)
        : fallback.fetch(input, init),
    );
    vi.spyOn(window, 'open').mockReturnValue(fakePopup() as unknown as Window);
    const { user } = renderPage();

    const cryptomus = await screen.findByRole('radio', { name: /Cryptomus/ });
    expect(cryptomus).toBeChecked();
    expect(screen.getByText('USDT · TRON — min 1.00 USDT, fee 2.00%')).toBeInTheDocument();
    expect(screen.getByText('USDT · TRON — min 1 USDT, fee 0.5%')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: /NOWPayments/ }));
    await user.type(amountInput(), '12.34');
    await user.click(depositButton());
    await screen.findByText('Waiting for your payment of $12.34');
    expect(fallback.calls.find((call) => call.method === 'POST')?.body).toEqual({
      amount: 12.34,
      provider: 'nowpayments',
    });
  });
});

describe('paying', () => {
  it('opens a centred 500x700 popup, polls every 4 s, and on COMPLETED toasts, closes it and goes to the dashboard', async () => {
    const popup = fakePopup();
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    state.statuses = ['PENDING', 'COMPLETED'];
    const { router, user } = renderPage();
    await user.type(amountInput(), '12.34');
    await user.click(depositButton());

    expect(open).toHaveBeenCalledTimes(1);
    const features = String(open.mock.calls[0]![2]);
    expect(features).toContain(`width=${PAYMENT_POPUP_WIDTH_PX},height=${PAYMENT_POPUP_HEIGHT_PX}`);
    expect(features).toMatch(/left=\d+,top=\d+/);
    await screen.findByText('Waiting for your payment of $12.34');
    expect(popup.location.href).toBe(INVOICE_URL);
    expect(popup.opener).toBeNull();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({ amount: 12.34 });
    await waitFor(() => expect(statusCalls()).toBe(1));

    await act(() => vi.advanceTimersByTimeAsync(TOPUP_STATUS_POLL_MS));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(topupMessages.completed));
    expect(popup.close).toHaveBeenCalled();
    expect(screen.getByText('$12.34 added to your balance')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/topup');
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_SUCCESS_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('keeps polling when the payment window looks closed, and completes from the server status', async () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    state.statuses = ['PENDING', 'PENDING', 'PENDING', 'COMPLETED'];
    const { user, router } = renderPage();
    await user.type(amountInput(), '20');
    await user.click(depositButton());
    await waitFor(() => expect(statusCalls()).toBe(1));

    // A payment page on another origin with Cross-Origin-Opener-Policy makes an open window look closed.
    popup.closed = true;
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByRole('button', { name: 'Open the payment page' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(TOPUP_STATUS_POLL_MS * 3));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(topupMessages.completed));
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_SUCCESS_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('follows the order the checkout returned with, toasts and goes to the dashboard on COMPLETED', async () => {
    vi.spyOn(window, 'open');
    state.payments = [topup({ order_id: 'order-back', amount: 9.5, url: INVOICE_URL })];
    state.statuses = ['PENDING', 'COMPLETED'];
    const { router } = renderPage('/dashboard/topup?order=order-back');
    expect(await screen.findByText('Waiting for your payment of $9.50')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(TOPUP_STATUS_POLL_MS));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(topupMessages.completed));
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_SUCCESS_REDIRECT_MS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.open).not.toHaveBeenCalled();
  });

  it('offers a link to the payment page when the browser blocks the popup, and keeps polling', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    state.statuses = ['PENDING', 'PENDING', 'COMPLETED'];
    const { user } = renderPage();
    await user.type(amountInput(), '15');
    await user.click(depositButton());
    const link = await screen.findByRole('link', { name: 'Open the payment page' });
    expect(link).toHaveAttribute('href', INVOICE_URL);
    expect(link).toHaveAttribute('target', '_blank');
    await act(() => vi.advanceTimersByTimeAsync(TOPUP_STATUS_POLL_MS * 2));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(topupMessages.completed));
  });

  it("shows 'Failed to create Cryptomus invoice' and closes the prepared window when the invoice fails", async () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    state.createAnswer = refuse(502, topupMessages.invoiceFailed);
    const { user } = renderPage();
    await user.type(amountInput(), '30');
    await user.click(depositButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(topupMessages.invoiceFailed);
    expect(toast.error).toHaveBeenCalledWith(topupMessages.invoiceFailed);
    expect(popup.close).toHaveBeenCalled();
    expect(depositButton()).toBeEnabled();
    expect(statusCalls()).toBe(0);
  });

  it('tells the payer when the invoice ended unpaid', async () => {
    vi.spyOn(window, 'open').mockReturnValue(fakePopup() as unknown as Window);
    state.statuses = ['EXPIRED'];
    const { user } = renderPage();
    await user.type(amountInput(), '30');
    await user.click(depositButton());
    expect(await screen.findByText('Top-up expired')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(TOPUP_STATUS_POLL_MS * 3));
    expect(statusCalls()).toBe(1);
    expect(toast.success).not.toHaveBeenCalled();
  });
});

describe('the page', () => {
  it('lists recent top-ups with their statuses, and states crediting times and the deposit terms', async () => {
    state.payments = [
      topup({
        order_id: 'a',
        amount: 25,
        status: 'PENDING',
        provider_status: 'confirm_check',
        url: INVOICE_URL,
      }),
      topup({
        order_id: 'b',
        amount: 10,
        credited_amount: 10.5,
        status: 'COMPLETED',
        provider_status: 'paid_over',
      }),
      topup({ order_id: 'c', amount: 50, status: 'EXPIRED', provider_status: 'cancel' }),
    ];
    renderPage();
    const list = await screen.findByRole('list', { name: 'Recent top-ups' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual([
      'Top-up of $25.00, Pending',
      'Top-up of $10.00, Credited',
      'Top-up of $50.00, Expired',
    ]);
    expect(rows[0]).toHaveTextContent('Payment seen, waiting for blockchain confirmations.');
    expect(within(rows[0]!).getByRole('button', { name: 'Pay' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('credited $10.50');
    expect(within(rows[2]!).queryByRole('button', { name: 'Pay' })).toBeNull();
    expect(screen.getByText(topupMessages.creditingTime)).toBeInTheDocument();
    expect(screen.getByText(topupMessages.nonRefundable)).toBeInTheDocument();
    expect(await screen.findByText('$3.50')).toBeInTheDocument();
  });

  it('states how an underpaid, overpaid, late or other-coin payment is credited, before anything is paid', async () => {
    renderPage();
    const rules = await screen.findByRole('list', { name: 'If you pay less, more or late' });
    expect(
      within(rules)
        .getAllByRole('listitem')
        .map((rule) => rule.textContent),
    ).toEqual([
      'Less than the invoice: nothing is credited automatically. The payment is held for support, who settle it with you.',
      'More than the invoice: your balance gets the US dollar value the payment processor reports for what arrived, never less than the invoice.',
      'Confirmed after the invoice expired: still credited, by these same rules.',
      'Every coin and network the payment page offers counts the same. A transfer in another coin or on another network than the page shows for your payment does not reach the invoice and is not credited: it is lost.',
    ]);
    // The old note promised the entered amount whatever arrived, which an overpayment contradicts.
    expect(screen.queryByText(/credited in US dollars, the amount you enter here/)).toBeNull();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
