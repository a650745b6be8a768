import { formatLandingStat, landingStatPlaceholder } from '@simcode/contract';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { startCountUp } from '@/lib/count-up';
import { publicConfig } from '@/lib/public-config';

/** Keys of the `landing` catalogue, in the order of the configured figures. */
const labels = ['stats.sms', 'stats.users', 'stats.countries', 'stats.services'];

/**
 * The configured figures as text. At build time they are placeholders that the server fills in, so the
 * prerendered page shows the operator's figures, and hydration finds exactly what it renders.
 */
function figureText(index: number, value: number): string {
  return typeof document === 'undefined' ? landingStatPlaceholder(index) : formatLandingStat(value);
}

export function StatsSection() {
  const { landingStats } = publicConfig();
  const { t } = useTranslation('landing');
  const listRef = useRef<HTMLDListElement>(null);
  // On a prerendered page the bootstrap has started it already; after a navigation in the app, this does.
  useLayoutEffect(() => {
    if (listRef.current) startCountUp(listRef.current);
  }, []);
  return (
    <section aria-label={t('stats.label')} className="px-4 sm:px-6">
      {/* The count-up marks its phase on the list (data-count-up) before the app hydrates: React leaves it. */}
      <dl
        ref={listRef}
        suppressHydrationWarning
        className="mx-auto grid max-w-5xl grid-cols-2 gap-px overflow-hidden rounded-2xl border bg-slate-200 shadow-sm lg:grid-cols-4"
      >
        {landingStats.map((target, index) => {
          const label = labels[index]!;
          const finalText = figureText(index, target);
          return (
            <div
              key={label}
              className="flex flex-col-reverse items-center gap-1 bg-white px-4 py-7 text-center sm:py-9"
            >
              <dt className="text-sm font-medium text-slate-600">{t(label)}</dt>
              <dd className="text-3xl font-extrabold tracking-tight text-primary tabular-nums sm:text-4xl">
                <span className="sr-only">{finalText}</span>
                {/* The final figure keeps the space, so the rising one moves nothing around it. */}
                <span aria-hidden="true" className="relative inline-block">
                  <span className="invisible">{finalText}</span>
                  {/* The count-up writes this text while it runs (lib/count-up.ts): React leaves it be. */}
                  <span data-stat={index} className="absolute inset-0" suppressHydrationWarning>
                    {finalText}
                  </span>
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
