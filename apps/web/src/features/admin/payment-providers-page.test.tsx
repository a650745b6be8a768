import { adminPaymentProvidersResponseSchema } from '@simcode/contract';
import { createFakeApi, ok, route } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentProvidersPage } from './payment-providers-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the payment providers page', () => {
  it("shows each provider's kind, health, balance at the processor, last error and today's payments", async () => {
    const api = createFakeApi([
      route('GET /api/admin/payments/providers', () =>
        ok(adminPaymentProvidersResponseSchema, {
          success: true,
          providers: [
            {
              name: 'cryptomus',
              kind: 'cryptomus',
              up: true,
              down_since: null,
              last_error: null,
              last_error_code: null,
              deposit_addresses: true,
              balances: [
                { currency: 'USDT', amount: '41.65' },
                { currency: 'BTC', amount: '0.00012' },
              ],
              today: { payments: 3, credited: 2, credited_amount: 42.5 },
            },
            {
              name: 'nowpayments',
              kind: 'nowpayments',
              up: false,
              down_since: '2026-03-02T10:15:00.000Z',
              last_error: 'NOWPayments invoice answered HTTP 503',
              last_error_code: 'unavailable',
              deposit_addresses: false,
              balances: null,
              today: { payments: 0, credited: 0, credited_amount: 0 },
            },
          ],
        }),
      ),
    ]);
    vi.stubGlobal('fetch', api.fetch);
    renderWithProviders([{ path: '/', Component: PaymentProvidersPage }], { at: '/' });

    const cryptomus = await screen.findByRole('region', { name: 'Cryptomus' });
    expect(within(cryptomus).getByText('Up')).toBeInTheDocument();
    expect(within(cryptomus).getByText('Deposit addresses')).toBeInTheDocument();
    expect(within(cryptomus).getByText('3')).toBeInTheDocument();
    expect(within(cryptomus).getByText('$42.50')).toBeInTheDocument();
    const held = within(cryptomus).getByRole('list', { name: 'Balance at the processor' });
    expect(
      within(held)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['41.65 USDT', '0.00012 BTC']);

    const nowPayments = screen.getByRole('region', { name: 'NOWPayments' });
    expect(within(nowPayments).getByText('Down')).toBeInTheDocument();
    expect(within(nowPayments).getByText('Invoices only')).toBeInTheDocument();
    expect(within(nowPayments).getByText('unavailable')).toBeInTheDocument();
    expect(within(nowPayments).getByText('NOWPayments invoice answered HTTP 503')).toBeInTheDocument();
    expect(
      within(nowPayments).getByText('Not read: the provider is down or could not say'),
    ).toBeInTheDocument();
  });
});
