import { describe, expect, it } from 'vitest';
import { LANGUAGE_TAGS, type Language } from './languages';
import english from './locales/en.json';
import russian from './locales/ru.json';
import chinese from './locales/zh.json';

type Catalogue = Record<string, Record<string, string>>;

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every text key of a catalogue as `namespace.key`, plural texts by their base key. */
function textsOf(catalogue: Catalogue): Map<string, Record<string, string>> {
  const texts = new Map<string, Record<string, string>>();
  for (const [namespace, entries] of Object.entries(catalogue)) {
    for (const [key, text] of Object.entries(entries)) {
      const suffix = PLURAL_SUFFIX.exec(key)?.[1] ?? '';
      const id = `${namespace}.${key.replace(PLURAL_SUFFIX, '')}`;
      texts.set(id, { ...texts.get(id), [suffix]: text });
    }
  }
  return texts;
}

function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1]!).sort();
}

/** The plural forms a language's texts need: what Intl (and so i18next) picks a form among. */
function pluralForms(language: Language): string[] {
  return new Intl.PluralRules(LANGUAGE_TAGS[language]).resolvedOptions().pluralCategories.slice().sort();
}

const englishTexts = textsOf(english);

describe.each([
  ['ru', russian],
  ['zh', chinese],
] as const)('the %s catalogue', (language, catalogue) => {
  const translated = textsOf(catalogue as Catalogue);

  it('has every text of the English one and no other', () => {
    expect([...translated.keys()].sort()).toEqual([...englishTexts.keys()].sort());
  });

  it("gives each plural text exactly the language's plural forms, and plain texts none", () => {
    const forms = pluralForms(language);
    for (const [id, variants] of englishTexts) {
      const expected = '' in variants ? [''] : forms;
      expect(Object.keys(translated.get(id) ?? {}).sort(), id).toEqual(expected);
    }
  });

  it('keeps every placeholder of the English text in each form, and adds none', () => {
    for (const [id, variants] of englishTexts) {
      const expected = [...new Set(Object.values(variants).flatMap(placeholdersOf))].sort();
      for (const [form, text] of Object.entries(translated.get(id) ?? {})) {
        expect(placeholdersOf(text), `${id} ${form}`).toEqual(expected);
      }
    }
  });

  it('leaves no text empty', () => {
    for (const [id, variants] of translated) {
      for (const text of Object.values(variants)) expect(text.trim(), id).not.toBe('');
    }
  });
});

describe('the English catalogue', () => {
  it('gives each plural text the English forms (one, other)', () => {
    for (const [id, variants] of englishTexts) {
      if (!('' in variants)) expect(Object.keys(variants).sort(), id).toEqual(pluralForms('en'));
    }
  });
});
