/** NOWPayments payment statuses (docs/payment-protocols.md). Unknown ones mean "wait". */
export const PAYMENT_STATUSES = [
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const;

export type KnownPaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentStatus = KnownPaymentStatus | (string & {});

/**
 * Statuses the payment does not leave by itself. `partially_paid` is one: NOWPayments keeps what arrived
 * and the payment stays there unless the payer sends the rest, which moves it on to `finished`.
 */
const FINAL_STATUSES: ReadonlySet<string> = new Set<KnownPaymentStatus>([
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
]);

export function isFinalStatus(status: PaymentStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/**
 * NOWPayments' published service fee, in percent (0.5% for a single-coin payment). The merchant pays it
 * out of what arrives unless the invoice says `is_fee_paid_by_user`.
 */
export const SERVICE_FEE_PERCENT = '0.5';

/** Network suffixes of NOWPayments coin codes (`usdttrc20` is USDT on TRON); plain codes are their own chain. */
const NETWORK_SUFFIXES: readonly [string, string][] = [
  ['trc20', 'TRON'],
  ['erc20', 'ETH'],
  ['bsc', 'BSC'],
  ['matic', 'POLYGON'],
  ['sol', 'SOL'],
  ['ton', 'TON'],
];

/** The coin and the network a NOWPayments currency code names: `usdttrc20` → USDT on TRON, `btc` → BTC on BTC. */
export function coinAndNetwork(code: string): { coin: string; network: string } {
  const lower = code.toLowerCase();
  for (const [suffix, network] of NETWORK_SUFFIXES) {
    if (lower.endsWith(suffix) && lower.length > suffix.length) {
      return { coin: lower.slice(0, -suffix.length).toUpperCase(), network };
    }
  }
  return { coin: lower.toUpperCase(), network: lower.toUpperCase() };
}
