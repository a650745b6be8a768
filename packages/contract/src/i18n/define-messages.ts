import { translate } from './instance';

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
/** A catalogue's keys without i18next's plural variants ('attempts_one', 'attempts_other' → none). */
type TextKeys<Catalogue> = Exclude<keyof Catalogue & string, `${string}_${PluralSuffix}`>;

type Interpolate = (key: string, values?: Record<string, unknown>) => string;

/**
 * A namespace of the shared catalogue as an object of texts: each plain text is a property read in the
 * current language when it is read (so a server answer is in the request's language), and texts that
 * take values are functions, written by `withValues` over the same keys.
 *
 *   export const ticketMessages = defineMessages('tickets', en.tickets, (t) => ({
 *     get titleTooLong() { return t('titleTooLong', { max: TICKET_TITLE_MAX_LENGTH }); },
 *     purchased: (service: string) => t('purchased', { service }),
 *   }));
 */
export function defineMessages<Catalogue extends Record<string, string>, Values extends object = object>(
  namespace: string,
  english: Catalogue,
  withValues?: (t: Interpolate) => Values,
): Readonly<Omit<{ [Key in TextKeys<Catalogue>]: string }, keyof Values>> & Values {
  const texts: Record<string, unknown> = {};
  const special = withValues?.((key, values) => translate(`${namespace}.${key}`, values)) ?? {};
  for (const key of Object.keys(english)) {
    if (/_(zero|one|two|few|many|other)$/.test(key) || key in special) continue;
    Object.defineProperty(texts, key, { enumerable: true, get: () => translate(`${namespace}.${key}`) });
  }
  // Descriptors, not values: a getter of `withValues` must stay a getter to follow the language.
  Object.defineProperties(texts, Object.getOwnPropertyDescriptors(special));
  return texts as never;
}
