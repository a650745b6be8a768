import { type Country, countries, countryById } from './countries';
import { type Service, serviceByCode, services } from './services';

/** Lower case, without accents, punctuation or extra spaces: how two spellings of one name compare. */
function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Names people write for countries beside the catalogue's own. */
const COUNTRY_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    usa: 'US',
    'united states of america': 'US',
    america: 'US',
    uk: 'GB',
    britain: 'GB',
    'great britain': 'GB',
    england: 'GB',
    'russian federation': 'RU',
    korea: 'KR',
    uae: 'AE',
    emirates: 'AE',
    holland: 'NL',
    turkiye: 'TR',
  }),
);

/** Names people write for services beside the catalogue's own. */
const SERVICE_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    x: 'tw',
    twitter: 'tw',
    google: 'go',
    gmail: 'go',
    youtube: 'go',
    meta: 'fb',
    insta: 'ig',
  }),
);

let countriesByName: Map<string, Country> | undefined;
let servicesByName: Map<string, Service> | undefined;

/**
 * The country a person means: an ISO code ('IL'), its name in the catalogue ('Israel'), or a common other
 * name ('UK', 'USA'), whatever the case and accents; undefined when it names none.
 */
export function findCountry(text: string): Country | undefined {
  const trimmed = text.trim();
  const byCode = /^[A-Za-z]{2}$/.test(trimmed) ? countryById(trimmed.toUpperCase()) : undefined;
  if (byCode) return byCode;
  countriesByName ??= new Map(countries.map((country) => [normalise(country.name), country]));
  const key = normalise(trimmed);
  const alias = COUNTRY_ALIASES.get(key);
  return countriesByName.get(key) ?? (alias ? countryById(alias) : undefined);
}

/**
 * The service a person means: its code ('tg'), its name ('Telegram'), a part of a name that lists several
 * ('Gmail' of 'Google, YouTube, Gmail'), or a common other name ('X'); undefined when it names none.
 */
export function findService(text: string): Service | undefined {
  const key = normalise(text);
  const byCode = serviceByCode(key.replace(/ /g, ''));
  if (byCode) return byCode;
  servicesByName ??= new Map(
    services.flatMap((service) => [
      [normalise(service.name), service] as const,
      // 'Twitter (X)' and 'Google, YouTube, Gmail' answer to each of their parts.
      ...service.name
        .split(/[,()]/)
        .map((part) => normalise(part))
        .filter(Boolean)
        .map((part) => [part, service] as const),
    ]),
  );
  const alias = SERVICE_ALIASES.get(key);
  return servicesByName.get(key) ?? (alias ? serviceByCode(alias) : undefined);
}
