import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { policies, TERMS_PDF_PATH } from '@/components/legal/policies';
import { PolicyButton } from '@/components/legal/policy-button';
import { publicPath } from '@/i18n';
import { publicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';
import { AnchorLink } from './anchor-link';
import { FooterLanguageSwitch } from './language-switch';
import { LogoMark } from './logo';

const linkClass =
  'rounded-sm text-left text-sm text-slate-300 transition-colors hover:text-white focus-visible:outline-offset-4 cursor-pointer';

function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <nav aria-label={title}>
      <h2 className="text-sm font-semibold text-white">{title}</h2>
      <ul className="mt-4 flex flex-col gap-3">{children}</ul>
    </nav>
  );
}

/** Buttons opening the Terms of Service and the Refund Policy as dialogs. */
function PolicyLinks() {
  return (
    <>
      {Object.values(policies).map((policy) => (
        <li key={policy}>
          <PolicyButton policy={policy} className={linkClass} />
        </li>
      ))}
    </>
  );
}

export function Footer() {
  const { appName } = publicConfig();
  const { isSignedIn } = useSession();
  const { t } = useTranslation('common');
  return (
    // Dark in both themes: `scheme-light` keeps the light theme's palette here (see styles.css).
    <footer className="bg-slate-950 text-slate-300 scheme-light">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-14 sm:px-6 md:grid-cols-3 lg:grid-cols-[1.6fr_1fr_1fr_1fr]">
        <div className="col-span-2 max-w-sm md:col-span-3 lg:col-span-1">
          <Link
            to={publicPath('/')}
            className="inline-flex items-center gap-2 rounded-md text-lg font-bold tracking-tight text-white"
          >
            <LogoMark />
            {appName}
          </Link>
          <p className="mt-4 text-sm leading-relaxed text-slate-400">{t('footer.tagline')}</p>
        </div>
        <FooterColumn title={t('footer.product')}>
          <li>
            <AnchorLink sectionId="features" className={linkClass}>
              {t('nav.features')}
            </AnchorLink>
          </li>
          <li>
            <AnchorLink sectionId="how-it-works" className={linkClass}>
              {t('nav.howItWorks')}
            </AnchorLink>
          </li>
          <li>
            <Link to={publicPath('/faq')} className={linkClass}>
              {t('nav.faq')}
            </Link>
          </li>
          <li>
            <Link to={publicPath('/stats')} className={linkClass}>
              {t('stats:link')}
            </Link>
          </li>
          <li>
            <Link to={publicPath('/status')} className={linkClass}>
              {t('status:link')}
            </Link>
          </li>
        </FooterColumn>
        <FooterColumn title={t('footer.account')}>
          <li>
            {isSignedIn ? (
              <Link to="/dashboard" className={linkClass}>
                {t('nav.dashboard')}
              </Link>
            ) : (
              <Link to={publicPath('/login')} className={linkClass}>
                {t('footer.signIn')}
              </Link>
            )}
          </li>
          <li>
            <Link to="/dashboard/tickets" className={linkClass}>
              {t('nav.support')}
            </Link>
          </li>
        </FooterColumn>
        <FooterColumn title={t('footer.legal')}>
          <PolicyLinks />
          <li>
            <a href={TERMS_PDF_PATH} type="application/pdf" className={linkClass}>
              {t('footer.termsPdf')}
            </a>
          </li>
        </FooterColumn>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 py-6 pr-20 pl-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p className="text-xs text-slate-400">{t('footer.copyright', { appName })}</p>
          <FooterLanguageSwitch />
        </div>
      </div>
    </footer>
  );
}
