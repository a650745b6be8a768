import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { publicPath } from '@/i18n';
import { SectionHeading } from './section-heading';

/** Each step's title and text are the `landing` catalogue's `howItWorks.steps.<id>.title` and `.text`. */
const steps = ['account', 'funds', 'choose', 'code'];

export function HowItWorksSection() {
  const { t } = useTranslation('landing');
  return (
    <section
      id="how-it-works"
      aria-labelledby="how-it-works-title"
      className="scroll-mt-20 px-4 py-20 sm:px-6 sm:py-28"
    >
      <SectionHeading
        id="how-it-works-title"
        eyebrow={t('howItWorks.eyebrow')}
        title={t('howItWorks.title')}
      />
      <ol className="mx-auto mt-14 grid max-w-6xl gap-8 sm:grid-cols-2 lg:grid-cols-4 lg:gap-6">
        {steps.map((step, index) => (
          <li key={step} className="relative">
            {index < steps.length - 1 && (
              <span
                aria-hidden="true"
                className="absolute top-6 left-14 hidden h-px w-[calc(100%-3rem)] bg-indigo-200 lg:block"
              />
            )}
            <span className="relative inline-flex size-12 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground shadow-md shadow-indigo-900/20">
              {index + 1}
            </span>
            <h3 className="mt-5 text-lg font-semibold text-slate-900">
              {t(`howItWorks.steps.${step}.title`)}
            </h3>
            <p className="mt-2 leading-relaxed text-slate-600">{t(`howItWorks.steps.${step}.text`)}</p>
          </li>
        ))}
      </ol>
      <p className="mx-auto mt-14 max-w-2xl text-center text-slate-600">
        {t('howItWorks.rentals')}{' '}
        <Link
          to={publicPath('/faq#long-term-numbers')}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          {t('howItWorks.rentalsLink')}
        </Link>
      </p>
    </section>
  );
}
