import {
  type DepositAddress,
  type DepositAddressesResponse,
  depositAddressesResponseSchema,
  depositAddressResponseSchema,
} from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, route } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DepositAddresses } from './deposit-address';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const ADDRESS: DepositAddress = {
  provider: 'cryptomus',
  currency: 'USDT',
  network: 'TRON',
  address: 'TXyzq1234567890abcdefghijkLMNOPQRS',
  url: 'https://pay.example.test/wallet/1',
  created_at: '2026-03-02T10:15:00.000Z',
};

let state: DepositAddressesResponse;
let api: FakeApi;

beforeEach(() => {
  state = {
    success: true,
    addresses: [],
    options: [{ provider: 'cryptomus', currency: 'USDT', network: 'TRON', min_amount: '1.00' }],
  };
  api = createFakeApi([
    route('GET /api/topup/deposit-addresses', () => ok(depositAddressesResponseSchema, state)),
    route('POST /api/topup/deposit-addresses', () => {
      state = { ...state, addresses: [ADDRESS] };
      return ok(depositAddressResponseSchema, { success: true, address: ADDRESS });
    }),
  ]);
  vi.stubGlobal('fetch', api.fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const render = () => renderWithProviders([{ path: '/', Component: DepositAddresses }], { at: '/' });

describe('deposit addresses', () => {
  it('gets an address once asked, with its QR code, a copy button and the network warning', async () => {
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Get address' }));
    expect(await screen.findByTestId('deposit-address')).toHaveTextContent(ADDRESS.address);
    expect(api.writes()).toEqual([
      expect.objectContaining({ body: { provider: 'cryptomus', currency: 'USDT', network: 'TRON' } }),
    ]);
    const qr = await screen.findByRole('img', { name: 'QR code of your USDT address on TRON' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeInTheDocument();
    expect(
      screen.getByText('Send only USDT on network TRON to this address; other coins or networks are lost.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the wallet page' })).toHaveAttribute('href', ADDRESS.url);
  });

  it('is not shown while no provider with deposit addresses answers', async () => {
    state = { ...state, options: [] };
    render();
    await waitFor(() => expect(api.calls.length).toBeGreaterThan(0));
    expect(screen.queryByText('Deposit address')).toBeNull();
  });
});
