import { services } from '@simcode/contract';

/**
 * SMS-Activate's numeric country ids, which Hero-SMS and the other compatible providers kept, to ISO
 * alpha-2. Compiled from the providers' country lists; id 12 (old virtual US numbers) is left out so that
 * 'US' means one upstream country. It is data: a provider that differs is fixed through `ProviderIdMap`.
 */
export const SMS_ACTIVATE_COUNTRY_IDS: Readonly<Record<number, string>> = {
  0: 'RU',
  1: 'UA',
  2: 'KZ',
  3: 'CN',
  4: 'PH',
  5: 'MM',
  6: 'ID',
  7: 'MY',
  8: 'KE',
  9: 'TZ',
  10: 'VN',
  11: 'KG',
  13: 'IL',
  14: 'HK',
  15: 'PL',
  16: 'GB',
  17: 'MG',
  18: 'CD',
  19: 'NG',
  20: 'MO',
  21: 'EG',
  22: 'IN',
  23: 'IE',
  24: 'KH',
  25: 'LA',
  26: 'HT',
  27: 'CI',
  28: 'GM',
  29: 'RS',
  30: 'YE',
  31: 'ZA',
  32: 'RO',
  33: 'CO',
  34: 'EE',
  35: 'AZ',
  36: 'CA',
  37: 'MA',
  38: 'GH',
  39: 'AR',
  40: 'UZ',
  41: 'CM',
  42: 'TD',
  43: 'DE',
  44: 'LT',
  45: 'HR',
  46: 'SE',
  47: 'IQ',
  48: 'NL',
  49: 'LV',
  50: 'AT',
  51: 'BY',
  52: 'TH',
  53: 'SA',
  54: 'MX',
  55: 'TW',
  56: 'ES',
  57: 'IR',
  58: 'DZ',
  59: 'SI',
  60: 'BD',
  61: 'SN',
  62: 'TR',
  63: 'CZ',
  64: 'LK',
  65: 'PE',
  66: 'PK',
  67: 'NZ',
  68: 'GN',
  69: 'ML',
  70: 'VE',
  71: 'ET',
  72: 'MN',
  73: 'BR',
  74: 'AF',
  75: 'UG',
  76: 'AO',
  77: 'CY',
  78: 'FR',
  79: 'PG',
  80: 'MZ',
  81: 'NP',
  82: 'BE',
  83: 'BG',
  84: 'HU',
  85: 'MD',
  86: 'IT',
  87: 'PY',
  88: 'HN',
  89: 'TN',
  90: 'NI',
  91: 'TL',
  92: 'BO',
  93: 'CR',
  94: 'GT',
  95: 'AE',
  96: 'ZW',
  97: 'PR',
  98: 'SD',
  99: 'TG',
  100: 'KW',
  101: 'SV',
  102: 'LY',
  103: 'JM',
  104: 'TT',
  105: 'EC',
  106: 'SZ',
  107: 'OM',
  108: 'BA',
  109: 'DO',
  110: 'SY',
  111: 'QA',
  112: 'PA',
  113: 'CU',
  114: 'MR',
  115: 'SL',
  116: 'JO',
  117: 'PT',
  118: 'BB',
  119: 'BI',
  120: 'BJ',
  121: 'BN',
  122: 'BS',
  123: 'BW',
  124: 'BZ',
  125: 'CF',
  126: 'DM',
  127: 'GD',
  128: 'GE',
  129: 'GR',
  130: 'GW',
  131: 'GY',
  132: 'IS',
  133: 'KM',
  134: 'KN',
  135: 'LR',
  136: 'LS',
  137: 'MW',
  138: 'NA',
  139: 'NE',
  140: 'RW',
  141: 'SK',
  142: 'SR',
  143: 'TJ',
  144: 'MC',
  145: 'BH',
  146: 'RE',
  147: 'ZM',
  148: 'AM',
  149: 'SO',
  150: 'CG',
  151: 'CL',
  152: 'BF',
  153: 'LB',
  154: 'GA',
  155: 'AL',
  156: 'UY',
  157: 'MU',
  158: 'BT',
  159: 'MV',
  160: 'GP',
  161: 'TM',
  162: 'GF',
  163: 'FI',
  164: 'LC',
  165: 'LU',
  166: 'VC',
  167: 'GQ',
  168: 'DJ',
  169: 'AG',
  170: 'KY',
  171: 'ME',
  172: 'DK',
  173: 'CH',
  174: 'NO',
  175: 'AU',
  176: 'ER',
  177: 'SS',
  178: 'ST',
  179: 'AW',
  180: 'MS',
  181: 'AI',
  182: 'JP',
  183: 'MK',
  184: 'SC',
  185: 'NC',
  186: 'CV',
  187: 'US',
  188: 'PS',
  189: 'FJ',
  190: 'KR',
  191: 'KP',
  192: 'EH',
  193: 'SB',
  194: 'JE',
  195: 'BM',
  196: 'SG',
  197: 'TO',
  198: 'WS',
  199: 'MT',
};

/**
 * Corrections to the default translation for one provider (`<NAME>_COUNTRY_IDS`, `<NAME>_SERVICE_CODES`).
 * An entry replaces every default that names the same ISO code or canonical service: at this provider that
 * country or service is reached through the given id only.
 */
export interface ProviderIdMap {
  /** Provider country id (as a string) to ISO alpha-2 upper case. */
  countries?: Record<string, string>;
  /** Provider service code to canonical service code (`services` of @simcode/contract). */
  services?: Record<string, string>;
}

export interface IdTranslator {
  /** Undefined for a provider country we do not sell. */
  countryToIso(providerId: string | number): string | undefined;
  countryFromIso(iso: string): string | undefined;
  /** Undefined for a provider service outside our catalogue. */
  serviceToCanonical(providerCode: string): string | undefined;
  serviceFromCanonical(canonical: string): string | undefined;
}

/** Provider id → ours, with the overrides applied, and the way back. */
function translation(defaults: Iterable<[string, string]>, overrides: Record<string, string>) {
  const forward = new Map(defaults);
  for (const [providerId, ours] of Object.entries(overrides)) {
    // Without this the default id would still lead to it, and translating back would pick one of the two.
    for (const [id, mapped] of forward) if (mapped === ours) forward.delete(id);
    forward.set(providerId, ours);
  }
  const backward = new Map<string, string>();
  for (const [providerId, mapped] of forward) backward.set(mapped, providerId);
  return { forward, backward };
}

export function createIdTranslator(idMap: ProviderIdMap = {}): IdTranslator {
  const countries = translation(
    Object.entries(SMS_ACTIVATE_COUNTRY_IDS),
    Object.fromEntries(Object.entries(idMap.countries ?? {}).map(([id, iso]) => [id, iso.toUpperCase()])),
  );
  const serviceCodes = translation(
    services.map((service) => [service.code, service.code]),
    idMap.services ?? {},
  );
  return {
    countryToIso: (providerId) => countries.forward.get(String(providerId).trim()),
    countryFromIso: (iso) => countries.backward.get(iso.toUpperCase()),
    serviceToCanonical: (providerCode) => serviceCodes.forward.get(providerCode.trim()),
    serviceFromCanonical: (canonical) => serviceCodes.backward.get(canonical),
  };
}

/**
 * The protocol's own ids, with no provider's corrections: what our public API speaks, whatever our upstream
 * is, and what the built-in simulator answers with.
 */
const defaults = createIdTranslator();

export const protocolIds = {
  /** SMS-Activate country id of an ISO code; -1 for a country the protocol has no id for. */
  countryOf(iso: string): number {
    const id = defaults.countryFromIso(iso);
    return id === undefined ? -1 : Number(id);
  },
  isoOf(protocolCountry: string): string | undefined {
    return defaults.countryToIso(protocolCountry);
  },
  serviceOf(canonical: string): string {
    return defaults.serviceFromCanonical(canonical) ?? canonical;
  },
  canonicalOf(protocolService: string): string | undefined {
    return defaults.serviceToCanonical(protocolService);
  },
};
