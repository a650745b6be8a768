// The NOWPayments sandbox's coins, invoices and payments, and the sums between coins and cents.
import { randomBytes } from 'node:crypto';
import { COIN_DECIMALS, SERVICE_FEE_PERCENT } from '@simcode/nowpayments-protocol';
/** A coin the sandbox accepts, at a fixed rate in US cents per whole coin. */
export interface Coin {
  code: string;
  name: string;
  network: string;
  centsPerCoin: number;
  /** The least NOWPayments accepts in this coin, in US cents (what `/v1/min-amount` reports). */
  minCents: number;
}

export const NOWPAYMENTS_SANDBOX_COINS: readonly Coin[] = [
  { code: 'usdttrc20', name: 'Tether USD', network: 'trx', centsPerCoin: 100, minCents: 100 },
  { code: 'usdcbsc', name: 'USD Coin', network: 'bsc', centsPerCoin: 100, minCents: 100 },
  { code: 'btc', name: 'Bitcoin', network: 'btc', centsPerCoin: 6_000_000, minCents: 500 },
  { code: 'ltc', name: 'Litecoin', network: 'ltc', centsPerCoin: 8_000, minCents: 100 },
];
/** NOWPayments' service fee in basis points (0.5%), which the merchant pays out of what arrives. */
export const NOWPAYMENTS_SERVICE_FEE_BPS = Math.round(Number(SERVICE_FEE_PERCENT) * 100);

export const DEFAULT_PAYMENT_LIFETIME_MS = 7 * 24 * 60 * 60_000;
export const DEFAULT_IPN_RETRY_DELAYS_MS = [2_000, 10_000, 60_000];
export const JWT_LIFETIME_MS = 5 * 60_000;
export const IPN_TIMEOUT_MS = 10_000;

export interface Invoice {
  id: string;
  tokenId: string;
  orderId: string | null;
  orderDescription: string | null;
  priceCents: number;
  priceCurrency: string;
  payCurrency: string | null;
  ipnCallbackUrl: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface Payment {
  paymentId: number;
  invoice: Invoice;
  status: string;
  coin: Coin;
  payAddress: string;
  /** What the payer owes, in 10^-8 of the coin. */
  payUnits: number;
  /** What arrived, in 10^-8 of the coin. */
  paidUnits: number;
  payinHash: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

export const coinByCode = (code: unknown) =>
  typeof code === 'string'
    ? NOWPAYMENTS_SANDBOX_COINS.find((coin) => coin.code === code.toLowerCase())
    : undefined;

/** Cents worth of 10^-8 coin units at the coin's fixed rate, rounded down (the merchant's side). */
export const unitsToCents = (units: number, coin: Coin) =>
  Math.floor((units * coin.centsPerCoin) / 10 ** COIN_DECIMALS);
/** Coin units a price in cents costs, rounded up (the payer's side). */
export const centsToUnits = (cents: number, coin: Coin) =>
  Math.ceil((cents * 10 ** COIN_DECIMALS) / coin.centsPerCoin);

export const iso = (ms: number) => new Date(ms).toISOString();

export function fakeAddress(coin: Coin): string {
  if (coin.network === 'trx') return `T${randomBytes(24).toString('base64url').slice(0, 33)}`;
  if (coin.network === 'btc') return `bc1q${randomBytes(19).toString('hex')}`;
  if (coin.network === 'ltc') return `ltc1q${randomBytes(19).toString('hex')}`;
  return `0x${randomBytes(20).toString('hex')}`;
}
