import { OTHER_SERVICE_CODE, serviceDisplayName } from '@simcode/contract';
import { currentLanguage, locale } from '@/i18n';
import { withArticle } from './format';

const regionNames = new Map<string, Intl.DisplayNames>();

/**
 * A country's name in the current language, from its ISO 3166-1 alpha-2 code ('GB' → 'Великобритания').
 * The catalogue API names countries in English: English shows that name as it is ('Hong Kong', where Intl
 * says 'Hong Kong SAR China'), and it is the fallback for a code Intl does not know.
 */
export function countryName(isoCode: string, englishName: string): string {
  if (currentLanguage() === 'en') return englishName;
  let names = regionNames.get(locale());
  if (!names) {
    names = new Intl.DisplayNames([locale()], { type: 'region', fallback: 'none' });
    regionNames.set(locale(), names);
  }
  try {
    return names.of(isoCode.toUpperCase()) ?? englishName;
  } catch {
    // Not a well-formed region code.
    return englishName;
  }
}

/**
 * A service name as a sentence of the current language puts it before "number": English wants an
 * article ('an OLX', 'a Telegram'); Russian and Chinese have none.
 */
export function serviceInSentence(name: string): string {
  if (currentLanguage() !== 'en') return name;
  // 'Any other' is a description, not a brand: "an any-other-service number", not "an Any other number".
  if (name === serviceDisplayName(OTHER_SERVICE_CODE)) return 'an any-other-service';
  return withArticle(name);
}
