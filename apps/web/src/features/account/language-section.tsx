import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from '@simcode/contract';
import { Languages } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '@/components/section-card';
import { rememberLanguage } from '@/i18n/preference';
import { saveAccountLanguage } from '@/lib/session';

/**
 * The account's language. A choice is kept in this browser and saved to the account (e-mails follow it),
 * then the page loads again, so everything, the shared messages too, renders in it.
 */
export function LanguageSection() {
  const { t, i18n } = useTranslation('account');
  const name = useId();

  function choose(language: Language) {
    rememberLanguage(language);
    saveAccountLanguage(language);
    window.location.reload();
  }

  return (
    <SectionCard
      id="language"
      icon={Languages}
      title={t('language.title')}
      description={t('language.description')}
      className="lg:col-span-2"
    >
      <div role="radiogroup" aria-labelledby="language-heading" className="flex flex-wrap gap-2">
        {LANGUAGES.map((language) => (
          <label
            key={language}
            className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:checked]:font-medium"
          >
            <input
              type="radio"
              name={name}
              value={language}
              checked={i18n.language === language}
              onChange={() => choose(language)}
              className="size-4 accent-primary"
            />
            <span lang={LANGUAGE_TAGS[language]}>{LANGUAGE_NAMES[language]}</span>
          </label>
        ))}
      </div>
    </SectionCard>
  );
}
