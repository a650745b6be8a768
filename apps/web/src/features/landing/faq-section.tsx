import { ArrowRight, LifeBuoy } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FaqAccordion } from '@/components/faq/faq-accordion';
import { featuredFaqEntries } from '@/components/faq/faq-data';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';

export function FaqSection() {
  const { t } = useTranslation('landing');
  return (
    <section
      id="faq"
      aria-labelledby="faq-title"
      className="scroll-mt-20 bg-slate-50 px-4 py-20 sm:px-6 sm:py-28"
    >
      <div className="mx-auto grid max-w-6xl gap-10 lg:grid-cols-[1fr_1.6fr] lg:gap-16">
        <div className="text-center lg:text-left">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">{t('faq.eyebrow')}</p>
          <h2 id="faq-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {t('faq.title')}
          </h2>
          <p className="mt-4 text-lg text-slate-600">{t('faq.text')}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:flex-col lg:items-start">
            <Button asChild variant="outline" className="bg-white">
              <Link to={publicPath('/faq')}>
                {t('faq.all')}
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild variant="link" className="px-0">
              <Link to="/dashboard/tickets">
                <LifeBuoy aria-hidden="true" />
                {t('common:support.contact')}
              </Link>
            </Button>
          </div>
        </div>
        <FaqAccordion entries={featuredFaqEntries} />
      </div>
    </section>
  );
}
