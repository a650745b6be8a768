import { Monitor, Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { chooseTheme, THEME_CHOICES, type ThemeChoice, useTheme } from '@/lib/theme';
import { cn } from '@/lib/utils';
import { NavbarMenu } from './navbar-menu';

const ICONS = { system: Monitor, light: Sun, dark: Moon } as const satisfies Record<ThemeChoice, unknown>;

/** The navigation bar's theme menu: the system's setting, light or dark. */
export function NavbarThemeSwitch({ className }: { className?: string }) {
  const { t } = useTranslation('common');
  const theme = useTheme();
  const Icon = ICONS[theme];
  return (
    <NavbarMenu
      className={className}
      label={t('theme.change', { theme: t(`theme.${theme}`) })}
      summary={<Icon className="size-4" aria-hidden="true" />}
    >
      {(close) => (
        <ul>
          {THEME_CHOICES.map((choice) => {
            const ChoiceIcon = ICONS[choice];
            const current = choice === theme;
            return (
              <li key={choice}>
                <button
                  type="button"
                  aria-pressed={current}
                  className={cn(
                    'flex w-full cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-left text-sm whitespace-nowrap hover:bg-accent',
                    current ? 'font-medium text-primary' : 'text-slate-700',
                  )}
                  onClick={() => {
                    chooseTheme(choice);
                    close();
                  }}
                >
                  <ChoiceIcon className="size-4" aria-hidden="true" />
                  {t(`theme.${choice}`)}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </NavbarMenu>
  );
}
