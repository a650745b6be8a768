import { serviceByCode } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { CountryFlag } from '@/components/country-flag';
import { ServiceIcon } from '@/components/service-icon';

/**
 * What a number looks like on the dashboard, as an illustration: fictitious numbers from the ranges the UK
 * and the US reserve for fiction, and the spec's status texts. Hidden from assistive technology; the caption
 * says it is an example. The numbers are written as formatPhone writes them (a unit test holds them to it), so
 * the phone-number library stays off this page's JavaScript.
 */
const examples = [
  {
    service: 'tg',
    country: 'GB',
    number: '+44 7700 900123',
    timeLeft: '17:42',
    code: '482913',
  },
  {
    service: 'wa',
    country: 'US',
    number: '+1 202 555 0143',
    timeLeft: '19:05',
    code: null,
  },
] as const;

export function HeroPreview() {
  const { t } = useTranslation('landing');
  return (
    <figure className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div
        aria-hidden="true"
        className="absolute -inset-10 -z-10 bg-[radial-gradient(closest-side,rgb(199_210_254/0.7),transparent)]"
      />
      <div
        aria-hidden="true"
        className="overflow-hidden rounded-2xl border bg-white shadow-xl shadow-indigo-900/10"
      >
        <div className="flex items-center justify-between border-b bg-slate-50/80 px-5 py-3">
          <span className="text-sm font-semibold text-slate-900">{t('common:nav.myNumbers')}</span>
          <span className="inline-flex items-center gap-1.5 text-xs font-medium text-success">
            <span className="size-2 rounded-full bg-green-500" />
            {t('preview.active')}
          </span>
        </div>
        <ul className="divide-y">
          {examples.map((example) => {
            const service = serviceByCode(example.service);
            return (
              <li key={example.number} className="px-5 py-4">
                <div className="flex items-center gap-3">
                  <ServiceIcon name={service?.name ?? ''} icon={service?.icon} />
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-slate-900">{service?.name}</p>
                    <p className="flex items-center gap-1.5 font-mono text-sm text-slate-600">
                      <CountryFlag country={example.country} />
                      {example.number}
                    </p>
                  </div>
                  <span className="rounded-md bg-slate-100 px-2 py-1 font-mono text-xs text-slate-700 tabular-nums">
                    {example.timeLeft}
                  </span>
                </div>
                {example.code ? (
                  <div className="mt-3 flex items-center justify-between rounded-lg border border-green-200 bg-success-soft px-4 py-2.5">
                    <span className="text-sm font-medium text-green-800">{t('preview.codeReceived')}</span>
                    <span className="font-mono text-xl font-bold tracking-[0.2em] text-green-900">
                      {example.code}
                    </span>
                  </div>
                ) : (
                  <div className="mt-3 flex items-center gap-2 rounded-lg border border-dashed px-4 py-2.5 text-sm text-slate-600">
                    <span className="flex gap-1">
                      <span className="size-1.5 animate-pulse rounded-full bg-indigo-500" />
                      <span className="size-1.5 animate-pulse rounded-full bg-indigo-500 [animation-delay:150ms]" />
                      <span className="size-1.5 animate-pulse rounded-full bg-indigo-500 [animation-delay:300ms]" />
                    </span>
                    {t('preview.waiting')}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <figcaption className="mt-3 text-center text-xs text-slate-500">{t('preview.caption')}</figcaption>
    </figure>
  );
}
