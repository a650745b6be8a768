import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from '@simcode/contract';
import { Globe } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { addressIn, rememberLanguage } from '@/i18n/preference';
import { saveAccountLanguage } from '@/lib/session';
import { cn } from '@/lib/utils';
import { NavbarMenu } from './navbar-menu';

/**
 * Links to the current page in each language. Plain links, so they work on a prerendered page before the
 * app runs; with the app, a click also remembers the choice (and saves it to the account) before the
 * browser loads the page in the new language.
 */
function LanguageLinks({ itemClassName }: { itemClassName: (current: boolean) => string }) {
  const { i18n } = useTranslation();
  const location = useLocation();
  return LANGUAGES.map((language: Language) => {
    const current = i18n.language === language;
    return (
      <li key={language}>
        <a
          href={addressIn(language, location)}
          hrefLang={LANGUAGE_TAGS[language]}
          lang={LANGUAGE_TAGS[language]}
          aria-current={current ? 'true' : undefined}
          className={itemClassName(current)}
          onClick={() => {
            rememberLanguage(language);
            saveAccountLanguage(language);
          }}
        >
          {LANGUAGE_NAMES[language]}
        </a>
      </li>
    );
  });
}

/** The footer's switch: every language in a row. */
export function FooterLanguageSwitch() {
  const { t } = useTranslation('common');
  return (
    <nav aria-label={t('language.label')}>
      <ul className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <LanguageLinks
          itemClassName={(current) =>
            cn(
              'rounded-sm text-sm transition-colors hover:text-white',
              current ? 'font-semibold text-white' : 'text-slate-400',
            )
          }
        />
      </ul>
    </nav>
  );
}

/** The navigation bar's switch: a globe that opens the list. */
export function NavbarLanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  return (
    <NavbarMenu
      className={className}
      label={t('language.change', { language: LANGUAGE_NAMES[i18n.language as Language] })}
      summary={
        <>
          <Globe className="size-4" aria-hidden="true" />
          <span aria-hidden="true">{(i18n.language as Language).toUpperCase()}</span>
        </>
      }
    >
      {() => (
        <ul>
          <LanguageLinks
            itemClassName={(current) =>
              cn(
                'block rounded-md px-3 py-2 text-sm hover:bg-accent',
                current ? 'font-medium text-primary' : 'text-slate-700',
              )
            }
          />
        </ul>
      )}
    </NavbarMenu>
  );
}
