import { LifeBuoy, MessageCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { publicConfig } from '@/lib/public-config';

export function CtaSection() {
  const { supportChatUrl } = publicConfig();
  const { t } = useTranslation('landing');
  return (
    <section aria-labelledby="cta-title" className="px-4 py-20 sm:px-6 sm:py-24">
      <div className="relative isolate mx-auto max-w-6xl overflow-hidden rounded-3xl scheme-light bg-gradient-to-br from-indigo-700 via-indigo-800 to-slate-900 px-6 py-14 text-center shadow-xl sm:px-12 sm:py-20">
        <div
          aria-hidden="true"
          className="absolute -top-24 -right-24 -z-10 size-96 rounded-full bg-[radial-gradient(closest-side,rgb(103_232_249/0.25),transparent)]"
        />
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
          {t('cta.title')}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-indigo-100">{t('cta.text')}</p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg" className="h-12 bg-white px-7 text-indigo-800 hover:bg-indigo-50">
            <Link to={publicPath('/register')}>{t('common:createAccount')}</Link>
          </Button>
          <Button
            asChild
            size="lg"
            variant="outline"
            className="h-12 border-white/40 bg-transparent px-7 text-white hover:bg-white/10 hover:text-white"
          >
            <Link to="/dashboard/tickets">
              <LifeBuoy aria-hidden="true" />
              {t('common:support.contact')}
            </Link>
          </Button>
          <Button
            asChild
            size="lg"
            variant="ghost"
            className="h-12 px-5 text-indigo-100 hover:bg-white/10 hover:text-white"
          >
            <a href={supportChatUrl} target="_blank" rel="noopener noreferrer">
              <MessageCircle aria-hidden="true" />
              {t('common:support.chat')}
              <span className="sr-only">{t('common:newTab')}</span>
            </a>
          </Button>
        </div>
      </div>
    </section>
  );
}
