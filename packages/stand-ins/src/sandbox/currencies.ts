import { decimalToUnits, unitsToDecimal } from '@simcode/cryptomus-protocol';

/**
 * What the sandbox prices in and takes payment in, at fixed exchange rates so that tests and demos give
 * the same numbers every time. Every amount is a whole number of the currency's smallest step: cents for
 * the US dollar and the dollar stablecoins (so a USD invoice paid in USDT is the same number of cents,
 * exactly as our own server credits it), 10^-8 for the other coins (the precision Cryptomus prints).
 *
 * Fixed rates, in US dollars per unit: USD, USDT and USDC 1; BTC 60000; ETH 3000; LTC 80; TRX 0.25.
 */

export interface SandboxNetwork {
  /** The code in invoices and webhooks (`tron`); payment/services prints it upper-case like Cryptomus. */
  code: string;
  label: string;
}

export interface SandboxCurrency {
  code: string;
  /** Amounts are whole numbers of 10^-decimals of the currency. */
  decimals: number;
  /** The fixed sandbox price of one unit in US dollars, at most 8 decimals. */
  usdRate: string;
  /** Where it can be paid; none for fiat, which invoices are only priced in. */
  networks: readonly SandboxNetwork[];
}

const TRON = { code: 'tron', label: 'TRON · TRC-20' };
const BSC = { code: 'bsc', label: 'BNB Chain · BEP-20' };
const ETHEREUM = { code: 'eth', label: 'Ethereum · ERC-20' };

export const CURRENCIES: readonly SandboxCurrency[] = [
  { code: 'USD', decimals: 2, usdRate: '1', networks: [] },
  { code: 'USDT', decimals: 2, usdRate: '1', networks: [TRON, BSC, ETHEREUM] },
  { code: 'USDC', decimals: 2, usdRate: '1', networks: [ETHEREUM] },
  { code: 'BTC', decimals: 8, usdRate: '60000', networks: [{ code: 'btc', label: 'Bitcoin' }] },
  { code: 'ETH', decimals: 8, usdRate: '3000', networks: [{ code: 'eth', label: 'Ethereum' }] },
  { code: 'LTC', decimals: 8, usdRate: '80', networks: [{ code: 'ltc', label: 'Litecoin' }] },
  { code: 'TRX', decimals: 8, usdRate: '0.25', networks: [{ code: 'tron', label: 'TRON' }] },
];

/** The Cryptomus fee the sandbox pretends to take, in percent of the paid amount (2% like D.7.1's sample). */
const COMMISSION_PERCENT = 2;

/** Cryptomus's fee on a payment, in steps of the coin that arrived. */
export const commissionUnits = (paidUnits: number) => Math.round((paidUnits * COMMISSION_PERCENT) / 100);

/**
 * The largest invoice or payment, in US cents: $10,000,000. It keeps every amount in every currency a safe
 * integer (the cheapest coin, TRX, then needs 4·10^15 steps) and is the max_amount payment/services lists.
 */
export const MAX_AMOUNT_USD_CENTS = 1_000_000_000;

const BY_CODE = new Map(CURRENCIES.map((currency) => [currency.code, currency]));

/** The currency of a code in any letter case, or undefined when the sandbox does not know it. */
export function findCurrency(code: unknown): SandboxCurrency | undefined {
  return typeof code === 'string' ? BY_CODE.get(code.toUpperCase()) : undefined;
}

/** The currency of a code the sandbox itself stored: an unknown one is a bug, not bad input. */
export function currency(code: string): SandboxCurrency {
  const found = findCurrency(code);
  if (!found) throw new Error(`payment sandbox has no currency ${code}`);
  return found;
}

export const USD = currency('USD');

export const isCrypto = (candidate: SandboxCurrency) => candidate.networks.length > 0;

/** One way to pay: a coin on a network. The id is what the checkout page's form posts. */
export interface PaymentMethod {
  id: string;
  currency: string;
  network: string;
  networkLabel: string;
}

export const PAYMENT_METHODS: readonly PaymentMethod[] = CURRENCIES.flatMap((coin) =>
  coin.networks.map((network) => ({
    id: `${coin.code.toLowerCase()}-${network.code}`,
    currency: coin.code,
    network: network.code,
    networkLabel: network.label,
  })),
);

/**
 * How an invoice can be paid: in its fixed coin when it has one (a crypto invoice, or `to_currency`), else
 * in the dollar stablecoins, whose amount is the invoice's dollar amount; only on its network when it names
 * one. Empty when the network does not carry any of those coins.
 */
export function methodsFor(payerCurrency: string | null, network: string | null): PaymentMethod[] {
  const coins = payerCurrency
    ? [payerCurrency]
    : CURRENCIES.filter((coin) => isCrypto(coin) && coin.usdRate === '1').map((coin) => coin.code);
  return PAYMENT_METHODS.filter(
    (method) => coins.includes(method.currency) && (network === null || method.network === network),
  );
}

/** The coin an invoice is paid in: the one fixed at creation, else none until the payer picks one. */
export function fixedPayerCurrency(invoiceCurrency: string, toCurrency: string | null): string | null {
  if (toCurrency) return toCurrency;
  return isCrypto(currency(invoiceCurrency)) ? invoiceCurrency : null;
}

const RATE_DECIMALS = 8;
const rateUnits = (of: SandboxCurrency) => BigInt(decimalToUnits(of.usdRate, RATE_DECIMALS) ?? 0);

/** `numerator / denominator` rounded half up; both positive. */
const divideRounded = (numerator: bigint, denominator: bigint) =>
  (numerator * 2n + denominator) / (denominator * 2n);

/** An amount of one currency in another at the fixed rates, rounded half up to the target's step. */
export function convert(units: number, from: SandboxCurrency, to: SandboxCurrency): number {
  if (from === to) return units;
  const numerator = BigInt(units) * rateUnits(from) * 10n ** BigInt(to.decimals);
  const denominator = rateUnits(to) * 10n ** BigInt(from.decimals);
  return Number(divideRounded(numerator, denominator));
}

/** Whole steps of the currency in a decimal amount, rounded half up; null if it is not a decimal. */
export const parseAmount = (value: unknown, of: SandboxCurrency) => decimalToUnits(value, of.decimals);

export const formatAmount = (units: number, of: SandboxCurrency) => unitsToDecimal(units, of.decimals);

/**
 * MAX_AMOUNT_USD_CENTS and an amount's worth, both as whole numbers of 10^-(decimals + 8) of a US cent, so
 * that comparing them is exact.
 */
const scaledCap = (of: SandboxCurrency) =>
  BigInt(MAX_AMOUNT_USD_CENTS) * 10n ** BigInt(of.decimals + RATE_DECIMALS);
const scaledWorth = (units: number, of: SandboxCurrency) => BigInt(units) * rateUnits(of) * 100n;

/** Whether an amount is worth more than the sandbox handles ($10,000,000). */
export const isTooLarge = (units: number, of: SandboxCurrency) => scaledWorth(units, of) > scaledCap(of);

/** The most of a currency the sandbox accepts: rounded down, so exactly this much is still accepted. */
const maxUnits = (of: SandboxCurrency) => Number(scaledCap(of) / scaledWorth(1, of));

/** `v1/payment/services`: every coin and network, with the limits invoices are held to and the fee. */
export function paymentServices() {
  return PAYMENT_METHODS.map((method) => {
    const coin = currency(method.currency);
    return {
      network: method.network.toUpperCase(),
      currency: coin.code,
      is_available: true,
      limit: { min_amount: formatAmount(1, coin), max_amount: formatAmount(maxUnits(coin), coin) },
      commission: { fee_amount: '0.00', percent: COMMISSION_PERCENT.toFixed(2) },
    };
  });
}

/** `v1/exchange-rate/{currency}/list`: the fixed rate from the currency to each other one, 8 decimals. */
export function exchangeRates(from: SandboxCurrency) {
  return CURRENCIES.filter((to) => to !== from).map((to) => ({
    from: from.code,
    to: to.code,
    course: unitsToDecimal(
      Number(divideRounded(rateUnits(from) * 10n ** BigInt(RATE_DECIMALS), rateUnits(to))),
      RATE_DECIMALS,
    ),
  }));
}
