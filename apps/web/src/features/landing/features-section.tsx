import { CalendarClock, Headset, type LucideIcon, RadioTower, ShieldCheck, Wallet, Zap } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SectionHeading } from './section-heading';

/** Each feature's title and text are the `landing` catalogue's `features.<id>.title` and `.text`. */
const features: { id: string; icon: LucideIcon }[] = [
  { id: 'realSim', icon: RadioTower },
  { id: 'exclusive', icon: ShieldCheck },
  { id: 'instant', icon: Zap },
  { id: 'payPerUse', icon: Wallet },
  { id: 'longTerm', icon: CalendarClock },
  { id: 'support', icon: Headset },
];

export function FeaturesSection() {
  const { t } = useTranslation('landing');
  return (
    <section
      id="features"
      aria-labelledby="features-title"
      className="scroll-mt-20 px-4 py-20 sm:px-6 sm:py-28"
    >
      <SectionHeading id="features-title" eyebrow={t('features.eyebrow')} title={t('features.title')}>
        {t('features.text')}
      </SectionHeading>
      <ul className="mx-auto mt-12 grid max-w-6xl gap-4 sm:mt-14 sm:grid-cols-2 sm:gap-5 lg:grid-cols-3">
        {features.map(({ id, icon: Icon }) => (
          <li
            key={id}
            className="flex gap-4 rounded-2xl border bg-white p-5 shadow-xs transition-shadow hover:shadow-md sm:flex-col sm:gap-5 sm:p-6"
          >
            <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-secondary text-primary">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div>
              <h3 className="text-lg font-semibold text-slate-900">{t(`features.${id}.title`)}</h3>
              <p className="mt-1.5 leading-relaxed text-slate-600 sm:mt-2">{t(`features.${id}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
