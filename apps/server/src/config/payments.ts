import type { Environment } from './env';

export const PAYMENT_PROVIDER_NAMES = ['cryptomus', 'heleket', 'nowpayments'] as const;
type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

/** One payment provider of the pool: its protocol and where and how it is reached. */
export type PaymentProviderSettings =
  | {
      name: 'cryptomus' | 'heleket';
      kind: 'cryptomus';
      /** Undefined: the built-in Cryptomus sandbox. */
      baseUrl?: string;
      merchantId: string;
      apiKey: string;
      webhookIps: string[];
    }
  | {
      name: 'nowpayments';
      kind: 'nowpayments';
      /** Undefined: the built-in NOWPayments sandbox. */
      baseUrl?: string;
      apiKey: string;
      ipnSecret: string;
      email: string;
      password: string;
    };

/** The names in PAYMENT_PROVIDERS (or its default), checked; the live ones' settings must all be there. */
export function readPaymentProviderNames(values: Environment, problems: string[]): PaymentProviderName[] {
  const listed = (
    values.PAYMENT_PROVIDERS ??
    (values.PAYMENT_PROVIDER === 'cryptomus' ? 'cryptomus' : 'cryptomus,nowpayments')
  )
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const names: PaymentProviderName[] = [];
  for (const name of listed) {
    if (!(PAYMENT_PROVIDER_NAMES as readonly string[]).includes(name)) {
      problems.push(
        `PAYMENT_PROVIDERS: unknown provider ${name} (known: ${PAYMENT_PROVIDER_NAMES.join(', ')})`,
      );
    } else if (names.includes(name as PaymentProviderName)) {
      problems.push(`PAYMENT_PROVIDERS: ${name} is listed twice`);
    } else {
      names.push(name as PaymentProviderName);
    }
  }
  if (listed.length === 0) problems.push('PAYMENT_PROVIDERS: names no provider');
  if (values.PAYMENT_PROVIDER === 'sandbox') return names;
  const required: Record<PaymentProviderName, (keyof Environment)[]> = {
    cryptomus: ['CRYPTOMUS_MERCHANT_ID', 'CRYPTOMUS_API_KEY'],
    heleket: ['HELEKET_MERCHANT_ID', 'HELEKET_API_KEY'],
    nowpayments: [
      'NOWPAYMENTS_API_KEY',
      'NOWPAYMENTS_IPN_SECRET',
      'NOWPAYMENTS_EMAIL',
      'NOWPAYMENTS_PASSWORD',
    ],
  };
  for (const name of names) {
    const missing = required[name].filter((key) => !values[key]);
    if (missing.length > 0) {
      problems.push(
        `${missing.join(' and ')}: are required when PAYMENT_PROVIDERS lists ${name} outside the sandbox`,
      );
    }
  }
  return names;
}

const ipList = (text: string) =>
  text
    .split(',')
    .map((ip) => ip.trim())
    .filter(Boolean);

/** Settings of each provider by its prefix; in the sandbox, the generated keys of the built-in sandboxes. */
export function paymentProviderSettings(
  names: PaymentProviderName[],
  values: Environment,
  sandbox: boolean,
  secrets: Record<'SANDBOX_API_KEY' | 'SANDBOX_IPN_SECRET', string>,
): PaymentProviderSettings[] {
  return names.map((name): PaymentProviderSettings => {
    if (name === 'nowpayments') {
      return {
        name,
        kind: 'nowpayments',
        baseUrl: sandbox ? undefined : (values.NOWPAYMENTS_BASE_URL ?? 'https://api.nowpayments.io'),
        apiKey: values.NOWPAYMENTS_API_KEY ?? secrets.SANDBOX_API_KEY,
        ipnSecret: values.NOWPAYMENTS_IPN_SECRET ?? secrets.SANDBOX_IPN_SECRET,
        email: values.NOWPAYMENTS_EMAIL ?? 'sandbox@simcode.local',
        password: values.NOWPAYMENTS_PASSWORD ?? secrets.SANDBOX_API_KEY,
      };
    }
    // In the sandbox Heleket is served by the Cryptomus sandbox, with its merchant and key.
    if (name === 'heleket' && !sandbox) {
      return {
        name,
        kind: 'cryptomus',
        baseUrl: values.HELEKET_BASE_URL ?? 'https://api.heleket.com',
        merchantId: values.HELEKET_MERCHANT_ID!,
        apiKey: values.HELEKET_API_KEY!,
        webhookIps: ipList(values.HELEKET_WEBHOOK_IPS),
      };
    }
    return {
      name,
      kind: 'cryptomus',
      baseUrl: sandbox ? undefined : (values.CRYPTOMUS_BASE_URL ?? 'https://api.cryptomus.com'),
      merchantId: values.CRYPTOMUS_MERCHANT_ID ?? 'sandbox-merchant',
      apiKey: values.CRYPTOMUS_API_KEY ?? secrets.SANDBOX_API_KEY,
      webhookIps: ipList(values.CRYPTOMUS_WEBHOOK_IPS),
    };
  });
}
