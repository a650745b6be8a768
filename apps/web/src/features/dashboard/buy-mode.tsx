import { Globe2, LayoutGrid } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserStorage } from '@/lib/browser-storage';
import { cn } from '@/lib/utils';

type BuyMode = 'country' | 'service';
const STORAGE_KEY = 'dashboard-mode';

/**
 * The dashboard's way of buying, as this browser chose it last ("By country" until then, as the spec has
 * it), unless the page was opened for one service (`opened`).
 */
export function useBuyMode(opened?: BuyMode) {
  const [mode, setMode] = useState<BuyMode>(
    () => opened ?? (browserStorage()?.getItem(STORAGE_KEY) === 'service' ? 'service' : 'country'),
  );
  function choose(next: BuyMode) {
    browserStorage()?.setItem(STORAGE_KEY, next);
    setMode(next);
  }
  return [mode, choose] as const;
}

/** "By country" or "By service": a segmented pair of native radios (arrow keys switch, the choice is read). */
export function BuyModeSwitch({ mode, onChange }: { mode: BuyMode; onChange(mode: BuyMode): void }) {
  const { t } = useTranslation('dashboard');
  const options = [
    { value: 'country', label: t('mode.byCountry'), Icon: Globe2 },
    { value: 'service', label: t('mode.byService'), Icon: LayoutGrid },
  ] as const;
  return (
    <fieldset className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
      <legend className="float-left mr-1 text-sm font-medium text-muted-foreground">
        {t('mode.legend')}
      </legend>
      <div className="inline-flex rounded-lg border bg-muted p-1">
        {options.map(({ value, label, Icon }) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              mode === value && 'bg-white text-foreground shadow-sm',
            )}
          >
            <input
              type="radio"
              name="buy-mode"
              value={value}
              checked={mode === value}
              onChange={() => onChange(value)}
              className="sr-only"
            />
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
