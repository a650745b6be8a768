import { type Rent, type RentStatusResponse, rentMessages } from '@simcode/contract';
import { aRent, createFakeRentApi } from '@test/fakes/rents';
import { renderWithProviders } from '@test/render';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RentsPage } from './rents-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
// Flags and brand icons come from the build's virtual modules, which tests do not have.
vi.mock('@/components/country-flag', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/country-flag')>()),
  CountryFlag: () => null,
}));
vi.mock('@/components/service-icon', () => ({ ServiceIcon: () => null }));

const NOW = new Date('2026-03-01T12:00:00.000Z');
let api: ReturnType<typeof createFakeRentApi>;

function renderPage(options: Parameters<typeof createFakeRentApi>[0], wide = true) {
  api = createFakeRentApi(options);
  vi.stubGlobal('fetch', api.fetch);
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: wide,
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
  localStorage.setItem('token', 'header.payload.signature');
  renderWithProviders([{ path: '/dashboard/longterm/numbers', Component: RentsPage }], {
    at: '/dashboard/longterm/numbers',
  });
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

const row = (name: RegExp | string) => screen.getByRole('row', { name });
const success = (values: RentStatusResponse['values']): RentStatusResponse => ({
  status: 'success',
  message: null,
  values,
  error: null,
});

beforeAll(() => {
  Element.prototype.scrollIntoView ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
});
beforeEach(() => {
  // Only the clock the countdown reads is fake; timers of the data layer run as usual.
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
  vi.unstubAllGlobals();
});

// Rented 5 minutes ago: still within the 20 minutes in which a rent can be canceled (and so replaced).
const RECENTLY = new Date(NOW.getTime() - 5 * 60_000).toISOString();
const telegram = aRent({
  id: 1,
  created_at: RECENTLY,
  end_date: new Date(NOW.getTime() + (26 * 3600 + 5) * 1000).toISOString(),
});
const whatsapp = aRent({
  id: 2,
  created_at: RECENTLY,
  service: { key: 'opt20', name: 'WhatsApp' },
  country: 'United Kingdom',
  country_id: 'GB',
  renewable: true,
  auto_renew: true,
  period: '1 week',
  hours: 168,
  end_date: new Date(NOW.getTime() + 3 * 3600 * 1000 + 61_000).toISOString(),
  auto_renew_error: 'Not renewed automatically: renewing costs $26.30 and your balance was lower.',
});
const canceled = aRent({
  id: 3,
  status: 'canceled',
  service: { key: 'opt1', name: 'Google, YouTube, Gmail' },
  status_reason: 'Canceled by you.',
});
const expired = aRent({
  id: 4,
  status: 'expired',
  service: { key: 'opt2', name: 'Facebook' },
  end_date: '2026-03-01T11:00:00.000Z',
});
const statuses: Record<string, RentStatusResponse> = {
  [telegram.order_id!]: success([
    { phoneFrom: 'DHL', text: 'Parcel today', code: null, date: '2026-03-01T11:30:00.000Z' },
    {
      phoneFrom: 'Telegram',
      text: 'Telegram code: 12345. Do not share it.',
      code: '12345',
      date: '2026-03-01T11:00:00.000Z',
    },
  ]),
  [canceled.order_id!]: { status: 'error', message: 'STATUS_CANCEL', values: [], error: null },
  [expired.order_id!]: { status: 'error', message: 'STATUS_FINISH', values: [], error: null },
};

describe('My Long-term Numbers', () => {
  it('shows every SMS as "sender: text", newest first, with the code highlighted and copyable', async () => {
    renderPage({ rents: [telegram, whatsapp, canceled, expired], statuses });
    const sms = await within(await screen.findByRole('row', { name: /^Telegram number/ })).findByRole(
      'list',
      { name: 'Received SMS' },
    );
    expect(
      within(sms)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^DHL: Parcel today/),
      expect.stringMatching(/^Telegram: Telegram code: 12345\. Do not share it\./),
    ]);
    expect(within(sms).getByTestId('rent-code')).toHaveTextContent('12345');
    expect(within(sms).getByRole('button', { name: 'Copy code 12345' })).toBeInTheDocument();
    expect(await within(row(/^WhatsApp number/)).findByText(rentMessages.smsWaiting)).toBeInTheDocument();
    expect(await within(row(/^Google/)).findByText(rentMessages.smsCanceled)).toBeInTheDocument();
    expect(await within(row(/^Facebook/)).findByText(rentMessages.smsEnded)).toBeInTheDocument();
  });

  it('counts down to the end date each second as Nd hh:mm:ss or hh:mm:ss, and says Expired at zero', async () => {
    renderPage({ rents: [telegram, whatsapp, expired], statuses });
    const telegramLeft = await within(
      await screen.findByRole('row', { name: /^Telegram number/ }),
    ).findByTestId('rent-time-left');
    expect(telegramLeft).toHaveTextContent('1d 02:00:05');
    expect(within(row(/^WhatsApp number/)).getByTestId('rent-time-left')).toHaveTextContent(/^03:01:01$/);
    expect(within(row(/^Facebook/)).getByTestId('rent-time-left')).toHaveTextContent(rentMessages.expired);
    act(() => vi.advanceTimersByTime(1000));
    expect(telegramLeft).toHaveTextContent('1d 02:00:04');
    act(() => vi.advanceTimersByTime((26 * 3600 + 4) * 1000));
    expect(telegramLeft).toHaveTextContent(rentMessages.expired);
  });

  it('disables what cannot succeed on canceled, expired and older rents, saying why', async () => {
    const older = aRent({ id: 5, service: { key: 'opt4', name: 'Instagram' } });
    const answered = aRent({
      id: 6,
      created_at: RECENTLY,
      service: { key: 'opt1', name: 'Viber' },
      sms_received: true,
    });
    renderPage({ rents: [telegram, canceled, expired, older, answered], statuses });
    await screen.findByRole('row', { name: /^Telegram number/ });
    for (const name of ['Cancel', 'Replace', 'Renew'])
      expect(within(row(/^Telegram number/)).getByRole('button', { name })).toBeEnabled();
    for (const name of [/^Google/, /^Facebook/]) {
      const cancel = within(row(name)).getByRole('button', { name: 'Cancel' });
      expect(cancel).toBeDisabled();
      expect(cancel).toHaveAttribute('title', rentMessages.alreadyEnded);
      expect(within(row(name)).getByRole('button', { name: 'Replace' })).toBeDisabled();
      const renew = within(row(name)).getByRole('button', { name: 'Renew' });
      expect(renew).toBeDisabled();
      expect(renew).toHaveAttribute('title', rentMessages.cannotRenew);
    }
    // Rented two hours ago: past the 20-minute cancel window, but still renewable.
    expect(within(row(/^Instagram/)).getByRole('button', { name: 'Cancel' })).toHaveAttribute(
      'title',
      rentMessages.cannotCancel,
    );
    expect(within(row(/^Instagram/)).getByRole('button', { name: 'Replace' })).toBeDisabled();
    expect(within(row(/^Instagram/)).getByRole('button', { name: 'Renew' })).toBeEnabled();
    // An SMS arrived minutes after renting: no cancel (the server refuses it), renewing still works.
    const answeredCancel = within(row(/^Viber/)).getByRole('button', { name: 'Cancel' });
    expect(answeredCancel).toBeDisabled();
    expect(answeredCancel).toHaveAttribute('title', rentMessages.cannotCancel);
    expect(within(row(/^Viber/)).getByRole('button', { name: 'Renew' })).toBeEnabled();
  });

  it('cancels and replaces with the toasts of spec section 8, and shows the server error when refused', async () => {
    const user = renderPage({
      rents: [telegram, whatsapp],
      statuses,
      failures: {
        [`POST /api/dashboard/rents/${whatsapp.order_id}/cancel`]: {
          status: 409,
          error: rentMessages.cannotCancel,
        },
      },
    });
    await user.click(
      await within(await screen.findByRole('row', { name: /^Telegram number/ })).findByRole('button', {
        name: 'Cancel',
      }),
    );
    // Cancelling asks first, with what comes back; "Not now" sends nothing.
    const asked = await screen.findByRole('alertdialog');
    expect(asked).toHaveTextContent('Cancel this Telegram number?');
    expect(asked).toHaveTextContent('Back to your balance$6.24');
    await user.click(within(asked).getByRole('button', { name: 'Not now' }));
    expect(api.posts()).toEqual([]);
    await user.click(within(row(/^Telegram number/)).getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel the rent' }),
    );
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(rentMessages.canceled));
    expect(api.posts().map((call) => call.path)).toEqual([
      `/api/dashboard/rents/${telegram.order_id}/cancel`,
    ]);
    // Replace asks with the price first, then cancels, then repeats.
    await user.click(within(row(/^Telegram number/)).getByRole('button', { name: 'Replace' }));
    const question = await screen.findByRole('alertdialog');
    expect(question).toHaveTextContent('Replace this Telegram number?');
    await user.click(within(question).getByRole('button', { name: 'Replace for $6.24' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(rentMessages.replaced));
    expect(api.posts().map((call) => call.path)).toEqual([
      `/api/dashboard/rents/${telegram.order_id}/cancel`,
      `/api/dashboard/rents/${telegram.order_id}/cancel`,
      `/api/dashboard/rents/${telegram.order_id}/repeat`,
    ]);
    await user.click(within(row(/^WhatsApp number/)).getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel the rent' }),
    );
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(rentMessages.cannotCancel));
    // A refused cancel stops a Replace before it buys anything.
    await user.click(within(row(/^WhatsApp number/)).getByRole('button', { name: 'Replace' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: /^Replace for/ }),
    );
    await waitFor(() => expect(toast.error).toHaveBeenCalledTimes(2));
    expect(api.posts().at(-1)?.path).toBe(`/api/dashboard/rents/${whatsapp.order_id}/cancel`);
    expect(api.posts().some((call) => call.path.endsWith(`${whatsapp.order_id}/repeat`))).toBe(false);
  });

  it('renews from the dialog: the period in hours is required, the price shows before confirming', async () => {
    const user = renderPage({ rents: [telegram], statuses, renewPrice: 0.65 });
    await user.click(
      await within(await screen.findByRole('row', { name: /^Telegram number/ })).findByRole('button', {
        name: 'Renew',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Renew number' });
    const hours = within(dialog).getByLabelText('Period in hours');
    expect(hours).toHaveValue(24);
    expect(hours).toHaveAttribute('min', '1');
    expect(await within(dialog).findByRole('button', { name: 'Renew for $0.65' })).toBeEnabled();

    await user.clear(hours);
    expect(within(dialog).getByText('Enter the number of hours.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Renew' })).toBeDisabled();
    await user.type(hours, '0');
    expect(within(dialog).getByText(/whole number of hours from 1 to 720/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Renew' })).toBeDisabled();

    await user.clear(hours);
    await user.type(hours, '48');
    await user.click(await within(dialog).findByRole('button', { name: 'Renew for $0.65' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(rentMessages.renewed));
    expect(api.posts().at(-1)).toMatchObject({
      path: `/api/dashboard/rents/${telegram.order_id}/renew`,
      body: { periodID: 48 },
    });
    expect(
      api.calls.some((call) => call.path.endsWith('/renew-price') && call.query.get('periodID') === '48'),
    ).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the dialog open with the server error when a renewal fails', async () => {
    const user = renderPage({
      rents: [telegram],
      statuses,
      failures: {
        [`POST /api/dashboard/rents/${telegram.order_id}/renew`]: {
          status: 402,
          error: rentMessages.insufficientBalanceRenew,
        },
      },
    });
    await user.click(
      await within(await screen.findByRole('row', { name: /^Telegram number/ })).findByRole('button', {
        name: 'Renew',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Renew number' });
    await user.click(await within(dialog).findByRole('button', { name: /^Renew for/ }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(rentMessages.insufficientBalanceRenew));
    expect(screen.getByRole('dialog', { name: 'Renew number' })).toBeInTheDocument();
  });

  it('switches auto-renew on renewable rents only, and says why it could not run', async () => {
    const user = renderPage({ rents: [telegram, whatsapp], statuses });
    const renewable = await screen.findByRole('row', { name: /^WhatsApp number/ });
    expect(within(renewable).getByText(/renewing costs \$26\.30/)).toBeInTheDocument();
    expect(within(row(/^Telegram number/)).queryByRole('switch')).not.toBeInTheDocument();
    await user.click(within(renewable).getByRole('switch', { name: 'Auto-renew' }));
    // Switching it off means the number ends on its date: asked first, and "Not now" changes nothing.
    const asked = await screen.findByRole('alertdialog');
    expect(asked).toHaveTextContent('Stop renewing automatically?');
    await user.click(within(asked).getByRole('button', { name: 'Not now' }));
    expect(api.posts()).toEqual([]);
    await user.click(within(renewable).getByRole('switch', { name: 'Auto-renew' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Stop renewing' }),
    );
    await waitFor(() =>
      expect(api.posts().at(-1)).toMatchObject({
        path: `/api/dashboard/rents/${whatsapp.order_id}/auto-renew`,
        body: { enabled: false },
      }),
    );
  });

  it('shows a renewed rent as Active, with Renewed beside it', async () => {
    renderPage({ rents: [{ ...telegram, status: 'renewed' }], statuses });
    const telegramRow = await screen.findByRole('row', { name: /^Telegram number/ });
    expect(within(telegramRow).getByTestId('rent-status')).toHaveTextContent('Active');
    expect(within(telegramRow).getByText('Renewed')).toBeInTheDocument();
  });

  it('shows the rents as cards on a phone', async () => {
    renderPage({ rents: [telegram, whatsapp], statuses }, false);
    const cards = await screen.findByRole('list', { name: 'Long-term numbers' });
    expect(within(cards).getAllByRole('listitem', { name: /number in/ })).toHaveLength(2);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says so when the list cannot be loaded, and offers both ways to rent when it is empty', async () => {
    renderPage({ rents: [], failures: { 'GET /api/dashboard/rents': { status: 500, error: '' } } });
    expect(await screen.findByText(rentMessages.fetchRentsFailed)).toBeInTheDocument();
    renderPage({ rents: [] as Rent[] });
    expect(await screen.findByText('No long-term numbers yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rent a long-term number' })).toHaveAttribute(
      'href',
      '/dashboard/longterm',
    );
  });
});
