import { rentMessages } from '@simcode/contract';
import { createFakeRentApi } from '@test/fakes/rents';
import { renderWithProviders } from '@test/render';
import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RenewablePage } from './renewable-page';
import { RentPage } from './rent-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
// Flags and brand icons come from the build's virtual modules, which tests do not have.
vi.mock('@/components/country-flag', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/country-flag')>()),
  CountryFlag: () => null,
}));
vi.mock('@/components/service-icon', () => ({ ServiceIcon: () => null }));

let api: ReturnType<typeof createFakeRentApi>;

function renderPage(Page: () => React.ReactNode, options: Parameters<typeof createFakeRentApi>[0] = {}) {
  api = createFakeRentApi(options);
  vi.stubGlobal('fetch', api.fetch);
  localStorage.setItem('token', 'header.payload.signature');
  return renderWithProviders([{ path: '/page', Component: Page }], { at: '/page' }).user;
}

async function chooseCountryAndService(user: ReturnType<typeof userEvent.setup>, service = /^Telegram,/) {
  await user.click(await screen.findByRole('radio', { name: /^United States/ }));
  await user.click(await screen.findByRole('radio', { name: service }));
}

const rentNow = () => screen.getByRole('button', { name: 'Rent Now' });
/** Rent Now asks with the price first: confirms the question. */
async function confirmRent(user: ReturnType<typeof userEvent.setup>) {
  const question = await screen.findByRole('alertdialog');
  await user.click(within(question).getByRole('button', { name: /^Rent for \$\d+\.\d\d$/ }));
}
const servicesAsked = () => api.calls.filter((call) => call.path === '/api/dashboard/rent-services');

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('Rent Long-term Number', () => {
  it('rents for 24 hours by default once a country and a service are chosen', async () => {
    const user = renderPage(RentPage);
    expect(screen.getByText('Beta')).toBeInTheDocument();
    const hours = screen.getByLabelText('Period in hours');
    expect(hours).toHaveValue(24);
    expect(hours).toHaveAttribute('min', '4');
    expect(hours).toHaveAttribute('max', '720');
    expect(rentNow()).toBeDisabled();
    await chooseCountryAndService(user);
    expect(servicesAsked().at(-1)?.query.toString()).toBe('country=US&periodID=24');
    await waitFor(() => expect(rentNow()).toBeEnabled());
    expect(screen.getByTestId('rent-price')).toHaveTextContent('$6.24');
    await user.click(rentNow());
    await confirmRent(user);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(rentMessages.rented, expect.anything()));
    expect(api.posts()).toEqual([
      expect.objectContaining({
        path: '/api/dashboard/rent-number',
        body: {
          country: 'United States',
          countryID: 'US',
          service: 'opt29',
          period: '24 hours',
          periodID: 24,
        },
      }),
    ]);
  });

  it('offers the examples 24 hours = 1 day, 168 = 1 week and 720 = 1 month, and asks prices for the period', async () => {
    const user = renderPage(RentPage);
    await chooseCountryAndService(user);
    await user.click(screen.getByRole('button', { name: '168 hours = 1 week' }));
    expect(screen.getByLabelText('Period in hours')).toHaveValue(168);
    await waitFor(() => expect(servicesAsked().at(-1)?.query.get('periodID')).toBe('168'));
    expect(screen.getByRole('button', { name: '720 hours = 1 month' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(screen.getByRole('button', { name: '24 hours = 1 day' })).toBeInTheDocument();
  });

  it.each(['3', '721', '1', '24.5', ''])(
    'refuses %j hours: Rent Now waits for a valid period',
    async (value) => {
      const user = renderPage(RentPage);
      await chooseCountryAndService(user);
      const hours = screen.getByLabelText('Period in hours');
      await user.clear(hours);
      if (value) await user.type(hours, value);
      expect(rentNow()).toBeDisabled();
      if (value) expect(screen.getByText('Enter a whole number of hours from 4 to 720.')).toBeInTheDocument();
    },
  );

  it('refuses out-of-stock services and a balance below the price without calling the server', async () => {
    const user = renderPage(RentPage, { balance: 1 });
    await user.click(await screen.findByRole('radio', { name: /^United States/ }));
    expect(await screen.findByRole('radio', { name: /^WhatsApp, .*out of stock$/ })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: /^Telegram,/ }));
    await waitFor(() => expect(rentNow()).toBeEnabled());
    await user.click(rentNow());
    // The shortfall and a way to the top-up page come with the spec's refusal.
    expect(toast.error).toHaveBeenCalledWith(
      rentMessages.insufficientBalance,
      expect.objectContaining({
        description: expect.stringMatching(/^You need \$\d+\.\d\d more\.$/),
        action: expect.objectContaining({ label: 'Top up' }),
      }),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.posts()).toEqual([]);
  });

  it("shows the server's error when the rent fails", async () => {
    const user = renderPage(RentPage, {
      failures: {
        'POST /api/dashboard/rent-number': {
          status: 409,
          error: 'No numbers are available for this choice right now.',
        },
      },
    });
    await chooseCountryAndService(user);
    await waitFor(() => expect(rentNow()).toBeEnabled());
    await user.click(rentNow());
    await confirmRent(user);
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('No numbers are available for this choice right now.'),
    );
  });
});

describe('Buy Renewable Number', () => {
  it('sells 1 week by default with auto-renew on, and sends the period text with its hours', async () => {
    const user = renderPage(RenewablePage);
    expect(screen.getByText('Beta')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Weeks' })).toBeChecked();
    expect(screen.getByLabelText('Number of weeks')).toHaveValue(1);
    expect(screen.getByTestId('renewable-period')).toHaveTextContent('Period: 1 week = 168 hours');
    // Automatic renewal is the buyer's choice, off until chosen.
    expect(screen.getByRole('switch', { name: 'Renew automatically' })).not.toBeChecked();
    await user.click(screen.getByRole('switch', { name: 'Renew automatically' }));
    await user.click(screen.getByRole('button', { name: 'One week more' }));
    expect(screen.getByTestId('renewable-period')).toHaveTextContent('Period: 2 weeks = 336 hours');
    await chooseCountryAndService(user);
    await waitFor(() => expect(rentNow()).toBeEnabled());
    expect(servicesAsked().at(-1)?.query.get('periodID')).toBe('336');
    await user.click(rentNow());
    await confirmRent(user);
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(rentMessages.renewableRented, expect.anything()),
    );
    expect(api.posts()[0]?.body).toEqual({
      country: 'United States',
      countryID: 'US',
      service: 'opt29',
      period: '2 weeks',
      periodID: 336,
      autoRenew: true,
    });
  });

  it('counts a month as 720 hours, keeps months to 1–3 and weeks to 1–7, and rents without auto-renew unless chosen', async () => {
    const user = renderPage(RenewablePage);
    await user.click(screen.getByRole('radio', { name: 'Months' }));
    expect(screen.getByTestId('renewable-period')).toHaveTextContent('Period: 1 month = 720 hours');
    const more = screen.getByRole('button', { name: 'One month more' });
    await user.click(more);
    await user.click(more);
    expect(screen.getByTestId('renewable-period')).toHaveTextContent('Period: 3 months = 2160 hours');
    expect(more).toBeDisabled();
    expect(screen.getByLabelText('Number of months')).toHaveAttribute('max', '3');

    await user.click(screen.getByRole('radio', { name: 'Weeks' }));
    const weeks = screen.getByLabelText('Number of weeks');
    expect(weeks).toHaveAttribute('max', '7');
    await user.clear(weeks);
    await user.type(weeks, '8');
    expect(screen.getByText('Enter 1 to 7 weeks.')).toBeInTheDocument();
    await user.clear(weeks);
    await user.type(weeks, '7');
    expect(screen.getByTestId('renewable-period')).toHaveTextContent('Period: 7 weeks = 1176 hours');

    await chooseCountryAndService(user);
    await waitFor(() => expect(rentNow()).toBeEnabled());
    await user.click(rentNow());
    await confirmRent(user);
    await waitFor(() => expect(api.posts()).toHaveLength(1));
    expect(api.posts()[0]?.body).toMatchObject({ period: '7 weeks', periodID: 1176, autoRenew: false });
  });
});
