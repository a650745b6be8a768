import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServiceIcon } from '@/components/service-icon';
import { publicPath } from '@/i18n';
import { landingServices } from './landing-services';
import { SectionHeading } from './section-heading';

export function ServicesSection() {
  const { t } = useTranslation('landing');
  return (
    <section
      id="service-providers"
      aria-labelledby="service-providers-title"
      className="scroll-mt-20 bg-slate-50 px-4 py-20 sm:px-6 sm:py-28"
    >
      <SectionHeading
        id="service-providers-title"
        eyebrow={t('services.eyebrow')}
        title={t('services.title')}
      >
        {t('services.text')}
      </SectionHeading>
      <ul className="mx-auto mt-12 grid max-w-5xl grid-cols-3 gap-2.5 sm:mt-14 sm:grid-cols-6 sm:gap-4">
        {landingServices.map((service) => (
          <li key={service.code} data-service-code={service.code}>
            {/* Each tile opens the service's public page: its delivery figures by country. */}
            <Link
              to={publicPath(`/stats/${service.code}`)}
              className="flex h-full flex-col items-center gap-2.5 rounded-2xl border bg-white px-1.5 py-4 text-center shadow-xs transition-colors hover:border-indigo-300 hover:bg-indigo-50/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary sm:gap-3 sm:py-5"
            >
              <ServiceIcon name={service.name} icon={service.icon} size="lg" />
              <span className="text-[0.8125rem] leading-snug font-medium text-slate-800 sm:text-sm">
                {service.name}
              </span>
            </Link>
          </li>
        ))}
        <li className="col-span-full flex items-center justify-center gap-3 rounded-2xl border border-dashed border-indigo-300 bg-indigo-50/60 px-4 py-5 text-center">
          <span className="inline-flex size-9 items-center justify-center rounded-full bg-white text-primary shadow-xs">
            <Plus className="size-5" aria-hidden="true" />
          </span>
          <Link
            to={publicPath('/stats')}
            className="font-semibold text-indigo-900 underline-offset-2 hover:underline"
          >
            {t('services.more')}
          </Link>
        </li>
      </ul>
    </section>
  );
}
