import { translate } from './instance';
import english from './locales/en.json';

let keysByText: Map<string, string> | undefined;

/** Every plain English text of the shared catalogue (no values, no plurals) → its key. */
function index(): Map<string, string> {
  if (keysByText) return keysByText;
  keysByText = new Map();
  for (const [namespace, texts] of Object.entries(english)) {
    for (const [key, text] of Object.entries(texts as Record<string, string>)) {
      if (typeof text !== 'string' || text.includes('{{') || /_(one|other)$/.test(key)) continue;
      // The first key wins: texts repeated in two namespaces read the same in every language too.
      if (!keysByText.has(text)) keysByText.set(text, `${namespace}.${key}`);
    }
  }
  return keysByText;
}

/**
 * A sentence that was written down in English (a refund's reason stored with the order, a provider's
 * refusal made before any request had a language) in the current language, when the shared catalogue has
 * it; any other text as it is.
 */
export function localizeEnglish(text: string): string;
export function localizeEnglish(text: string | null): string | null;
export function localizeEnglish(text: string | null): string | null {
  if (text === null) return null;
  const key = index().get(text);
  return key ? translate(key) : text;
}
