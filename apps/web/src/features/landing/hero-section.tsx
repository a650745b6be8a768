import { ArrowRight, BadgeCheck, Check } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { HeroPreview } from './hero-preview';

/** Keys of the `landing` catalogue. */
const promises = ['hero.promises.noSubscriptions', 'hero.promises.refund', 'hero.promises.support'];

export function HeroSection() {
  const { t } = useTranslation('landing');
  return (
    <section
      id="hero"
      aria-labelledby="hero-title"
      className="relative isolate scroll-mt-20 overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white pt-28 pb-14 sm:pt-36 lg:pb-20"
    >
      <div
        aria-hidden="true"
        className="absolute top-0 left-1/2 -z-10 h-[36rem] w-[72rem] -translate-x-1/2 -translate-y-1/3 rounded-full bg-[radial-gradient(closest-side,rgb(165_180_252/0.45),transparent)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-[1.15fr_1fr] lg:gap-16">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white/80 px-3 py-1 text-sm font-medium text-indigo-800 shadow-xs">
            <BadgeCheck className="size-4" aria-hidden="true" />
            {t('hero.badge')}
          </p>
          {/* Chinese keeps its glyphs' own spacing and a looser leading; Russian's long
              words get a size that fits them and may wrap inside rather than overflow. */}
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-extrabold tracking-tight text-balance break-words text-slate-900 sm:text-5xl lg:text-6xl [&:lang(ru)]:lg:text-[3.25rem] [&:lang(zh)]:leading-snug [&:lang(zh)]:tracking-normal"
          >
            <Trans t={t} i18nKey="hero.title" components={{ accent: <span className="text-primary" /> }} />
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-pretty text-slate-600 lg:mx-0">{t('hero.text')}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <Button asChild size="lg" className="h-12 px-7">
              <Link to={publicPath('/login')}>
                {t('common:nav.getStarted')}
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline" className="h-12 bg-white px-7">
              <Link to={publicPath('/register')}>{t('common:createAccount')}</Link>
            </Button>
          </div>
          <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-600 lg:justify-start">
            {promises.map((promise) => (
              <li key={promise} className="inline-flex items-center gap-1.5">
                <Check className="size-4 text-success" aria-hidden="true" />
                {t(promise)}
              </li>
            ))}
          </ul>
        </div>
        <HeroPreview />
      </div>
    </section>
  );
}
