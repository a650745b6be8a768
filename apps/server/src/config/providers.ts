import { countryById, serviceByCode } from '@simcode/contract';
import { z } from 'zod';
import { type Environment, optionalUrl, positiveInt } from './env';

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * `<ours>=<the provider's>` pairs separated by commas (`US=187,GB=16`, `tg=telegram`), read into the
 * provider's id → ours: each side names one id, so that translating either way is unambiguous.

 */
function idOverrides(example: string, ours: (key: string) => string | undefined, providerId: RegExp) {
  return z
    .string()
    .trim()
    .transform((value, context) => {
      const fail = (problem: string) => {
        context.addIssue({ code: 'custom', message: `must be pairs such as ${example}: ${problem}` });
        return z.NEVER;
      };
      const map: Record<string, string> = {};
      for (const entry of value.split(',').map((pair) => pair.trim())) {
        const [key = '', id = '', ...rest] = entry.split('=').map((part) => part.trim());
        const own = ours(key);
        if (rest.length > 0 || key === '' || id === '') return fail(`"${entry}" is not one`);
        if (own === undefined) return fail(`"${key}" is not one of ours`);
        if (!providerId.test(id)) return fail(`"${id}" is not an id of the provider`);
        if (Object.values(map).includes(own)) return fail(`"${key}" is named twice`);
        if (id in map) return fail(`"${id}" is given twice`);
        map[id] = own;
      }
      return map;
    });
}

export const providerKinds = ['smsactivate', 'fivesim', 'simulator'] as const;
export type ProviderKind = (typeof providerKinds)[number];

/**
 * One supplier's variables, read with its name's prefix: `HERO_KIND` for `hero`, `SIM_B_SEED` for `sim-b`.
 * The simulator-only settings default to the global SIMULATOR_* ones.
 */
export const providerEnvironmentSchema = z.object({
  KIND: z.enum(providerKinds, { error: `must be one of ${providerKinds.join(', ')}` }),
  /** handler_api.php URL (smsactivate), API root (fivesim: https://5sim.net/v1 unless told); built in for simulators. */
  URL: optionalUrl,
  KEY: z.string().min(1).optional(),
  /** SMS_PROVIDER_USD_RATE unless told. */
  USD_RATE: z.coerce.number({ error: 'must be a number' }).positive().optional(),
  /** SMS_PROVIDER_TIMEOUT_MS unless told. */
  TIMEOUT_MS: positiveInt.optional(),
  SEED: z.coerce.number({ error: 'must be a number' }).int().optional(),
  /** The IANA zone its zone-less dates are in (`Europe/Moscow` for some of the SMS-Activate family). */
  TIME_ZONE: z
    .string()
    .refine(isTimeZone, { error: 'must be an IANA time zone such as UTC or Europe/Moscow' })
    .default('UTC'),
  /** Simulators only: the protocol it speaks; `sim-b` speaks 5sim's unless told. */
  PROTOCOL: z.enum(['smsactivate', 'fivesim'], { error: 'must be smsactivate or fivesim' }).optional(),
  NO_SMS_RATE: z.coerce.number({ error: 'must be a number' }).min(0).max(1).optional(),
  /** smsactivate only: countries whose id at this provider is not SMS-Activate's, `US=187,GB=16`. */
  COUNTRY_IDS: idOverrides(
    'US=187,GB=16 (an ISO country code, then the numeric id the provider gives it)',
    (key) => countryById(key)?.id,
    /^\d{1,5}$/,
  ).optional(),
  /** smsactivate only: services whose code at this provider is not ours, `tg=tg,wa=wa`. */
  SERVICE_CODES: idOverrides(
    "tg=tg,wa=wa (a service code of ours, then the provider's)",
    (key) => serviceByCode(key.toLowerCase())?.code,
    /^[A-Za-z0-9_-]{1,40}$/,
  ).optional(),
  /**
   * Simulators speaking SMS-Activate's protocol only: how they tell refusals, `classic` (HTTP 200 and a
   * token) or `hero` (Hero-SMS's HTTP statuses and JSON); their answers stay SMS-Activate's.
   */
  ERROR_STYLE: z.enum(['classic', 'hero'], { error: 'must be classic or hero' }).optional(),
  /**
   * smsactivate providers that take a per-customer id on purchases (HeroSMS's `resellerUserId`): `true` sends
   * a stable anonymous id per buyer, so the provider's ban falls on that buyer, not on our account.
   */
  RESELLER_USER_ID: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
});

export interface ProviderSettings {
  /** How orders, snapshots, logs and the webhook's path name this provider; never shown to users. */
  name: string;
  kind: ProviderKind;
  /** The provider's API URL; undefined for simulators, which are served by this process. */
  url?: string;
  /** Undefined for simulators until the generated key is filled in. */
  key?: string;
  /** US dollars per unit of the provider's currency. */
  usdRate: number;
  timeoutMs: number;
  /** The IANA zone of its zone-less dates. */
  timeZone: string;
  /** Simulators only: the protocol it speaks, its catalog's seed and share of numbers that never get an SMS. */
  protocol?: 'smsactivate' | 'fivesim';
  seed?: number;
  noSmsRate?: number;
  /** Simulators speaking SMS-Activate's protocol: how they tell refusals. */
  errorStyle?: 'classic' | 'hero';
  /** smsactivate providers: whether purchases carry the buyer's anonymous id (`resellerUserId`). */
  resellerUserId: boolean;
  /** smsactivate providers: their ids where they differ from SMS-Activate's (provider id → ours). */
  idMap?: { countries?: Record<string, string>; services?: Record<string, string> };
}

/** `sim-b` reads `SIM_B_*`. */
export function providerEnvPrefix(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_`;
}

/**
 * The built-in pool of a fresh clone: two simulated suppliers that differ in catalog, prices and stock
 * (their seeds) and in reliability, so that routing and failover can be watched without any account.
 */
const DEFAULT_POOL = ['sim-a', 'sim-b'];

export function readProviderPool(values: Environment, env: Record<string, string>, problems: string[]) {
  const legacy = (): ProviderSettings => ({
    name: values.SMS_PROVIDER ?? 'simulator',
    kind: values.SMS_PROVIDER ?? 'simulator',
    url: values.SMS_PROVIDER_URL,
    key: values.SMS_PROVIDER_KEY,
    usdRate: values.SMS_PROVIDER_USD_RATE,
    timeoutMs: values.SMS_PROVIDER_TIMEOUT_MS,
    timeZone: 'UTC',
    resellerUserId: false,
    protocol: (values.SMS_PROVIDER ?? 'simulator') === 'simulator' ? 'smsactivate' : undefined,
    seed: values.SIMULATOR_SEED,
    noSmsRate: values.SIMULATOR_NO_SMS_RATE,
  });
  if (!values.SMS_PROVIDERS && values.SMS_PROVIDER) return [legacy()];
  const names = values.SMS_PROVIDERS?.split(',').map((name) => name.trim()) ?? DEFAULT_POOL;
  if (new Set(names).size !== names.length) problems.push('SMS_PROVIDERS: names a provider twice');
  const baseSeed = values.SIMULATOR_SEED ?? 1;
  return names.flatMap((name, index): ProviderSettings[] => {
    const prefix = providerEnvPrefix(name);
    const own = Object.fromEntries(
      Object.entries(env)
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, value]) => [key.slice(prefix.length), value]),
    );
    // The built-in suppliers' names need no variables: they are simulators unless told otherwise.
    const parsed = providerEnvironmentSchema.safeParse(
      DEFAULT_POOL.includes(name) ? { KIND: 'simulator', ...own } : own,
    );
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(
          `${prefix}${issue.path.join('.')}: ${issue.message} (provider ${name} of SMS_PROVIDERS)`,
        );
      return [];
    }
    const settings = parsed.data;
    if (settings.KIND === 'smsactivate' && (!settings.URL || !settings.KEY)) {
      problems.push(`${prefix}URL and ${prefix}KEY: are required when ${prefix}KIND is smsactivate`);
    }
    if (settings.KIND === 'fivesim' && !settings.KEY) {
      problems.push(`${prefix}KEY: is required when ${prefix}KIND is fivesim (the API token)`);
    }
    // The built-in pool shows both protocols: sim-a speaks SMS-Activate's, sim-b 5sim's.
    const protocol =
      settings.KIND === 'simulator'
        ? (settings.PROTOCOL ?? (name === 'sim-b' ? 'fivesim' : 'smsactivate'))
        : undefined;
    for (const variable of ['COUNTRY_IDS', 'SERVICE_CODES'] as const) {
      // A simulator answers with the built-in ids, and 5sim names countries and products in words.
      if (settings[variable] && settings.KIND !== 'smsactivate')
        problems.push(`${prefix}${variable}: only an smsactivate provider takes it`);
    }
    if (settings.ERROR_STYLE && protocol !== 'smsactivate') {
      problems.push(
        `${prefix}ERROR_STYLE: only a simulator speaking SMS-Activate's protocol takes it (real providers have their own)`,
      );
    }
    return [
      {
        name,
        kind: settings.KIND,
        url: settings.URL,
        key: settings.KEY ?? (settings.KIND === 'simulator' ? values.SMS_PROVIDER_KEY : undefined),
        usdRate: settings.USD_RATE ?? values.SMS_PROVIDER_USD_RATE,
        timeoutMs: settings.TIMEOUT_MS ?? values.SMS_PROVIDER_TIMEOUT_MS,
        timeZone: settings.TIME_ZONE,
        protocol,
        // Each simulator its own catalog; the later ones less reliable, so that the difference shows.
        seed: settings.SEED ?? baseSeed + index,
        noSmsRate: settings.NO_SMS_RATE ?? Math.min(1, values.SIMULATOR_NO_SMS_RATE * (index + 1)),
        errorStyle: settings.ERROR_STYLE,
        resellerUserId: settings.RESELLER_USER_ID === 'true',
        idMap:
          settings.COUNTRY_IDS || settings.SERVICE_CODES
            ? { countries: settings.COUNTRY_IDS, services: settings.SERVICE_CODES }
            : undefined,
      },
    ];
  });
}
