import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { publicPath } from '@/i18n';
import { summaryQuery } from '@/lib/summary-query';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { ActiveNumbers, useActiveNumbers } from './active-numbers';
import { BoughtNumber } from './bought-number';
import { BuyModeSwitch, useBuyMode } from './buy-mode';
import { ByCountry } from './by-country';
import { ByService } from './by-service';
import { FavouritesPanel } from './favourites-panel';
import { Notices } from './notices';
import { StatCards } from './stat-cards';
import { usePurchase } from './use-purchase';

type Section = 'buy' | 'live';

/** On phones the Buy panel and the live numbers are two tabs; wider screens show both side by side. */
function SectionTabs({
  section,
  onChange,
  liveCount,
}: {
  section: Section;
  onChange(section: Section): void;
  liveCount: number;
}) {
  const { t } = useTranslation('dashboard');
  const tabs = [
    { value: 'buy', label: t('tabs.buy') },
    { value: 'live', label: t('tabs.live', { count: liveCount }) },
  ] as const;
  return (
    <fieldset className="grid grid-cols-2 rounded-lg border bg-muted p-1 lg:hidden">
      <legend className="sr-only">{t('tabs.label')}</legend>
      {tabs.map((tab) => (
        <button
          key={tab.value}
          type="button"
          aria-pressed={section === tab.value}
          onClick={() => onChange(tab.value)}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors',
            section === tab.value && 'bg-background text-foreground shadow-sm',
          )}
        >
          {tab.label}
        </button>
      ))}
    </fieldset>
  );
}

/**
 * The dashboard: buying comes first. The Buy panel sits right under one-line notices, with the number just
 * bought at its top; the live numbers are a compact list beside it (a tab on phones); the spec's stat cards
 * and favourites follow below.
 */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const summary = useQuery(summaryQuery);
  const purchase = usePurchase();
  const now = useNow();
  const active = useActiveNumbers(now);
  // `?service=tg` (a public price list's Buy) opens "By service" on that service.
  const [search] = useSearchParams();
  const linkedService = /^[a-z0-9_-]{1,60}$/.test(search.get('service') ?? '') ? search.get('service') : null;
  const [mode, setMode] = useBuyMode(linkedService ? 'service' : undefined);
  const [section, setSection] = useState<Section>('buy');
  // The service of "By service": the page's, so a starred service opens there.
  const [serviceId, setServiceId] = useState<string | null>(linkedService);

  function openService(service: string) {
    setServiceId(service);
    setMode('service');
    setSection('buy');
  }

  const hasLive = active.length > 0;
  const showing = hasLive ? section : 'buy';
  return (
    <PageContainer>
      <PageHeader title={t('page.title')} description={t('page.description')} />
      <div className="flex flex-col gap-4">
        <Notices balance={summary.data?.balance} />
        {hasLive && <SectionTabs section={showing} onChange={setSection} liveCount={active.length} />}
        <div
          className={cn(
            'grid grid-cols-1 items-start gap-4',
            hasLive && 'lg:grid-cols-[minmax(0,1fr)_22rem]',
          )}
        >
          <section
            aria-label={t('mode.legend')}
            className={cn('flex min-w-0 flex-col gap-4', showing !== 'buy' && 'hidden lg:flex')}
          >
            {purchase.bought.map((number) => (
              <BoughtNumber
                key={number.id}
                bought={number}
                onDismiss={() => purchase.dismissBought(number.id)}
              />
            ))}
            <BuyModeSwitch mode={mode} onChange={setMode} />
            {mode === 'service' ? (
              <ByService serviceId={serviceId} onServiceChange={setServiceId} purchase={purchase} />
            ) : (
              <ByCountry purchase={purchase} />
            )}
            <p className="text-sm text-muted-foreground">
              {t('indexNote')}{' '}
              <Link
                to={publicPath('/stats')}
                className="font-medium text-primary underline underline-offset-2"
              >
                {t('stats:link')}
              </Link>
            </p>
          </section>
          <ActiveNumbers
            active={active}
            now={now}
            className={cn('lg:sticky lg:top-24', showing !== 'live' && 'hidden lg:block')}
          />
        </div>
        <FavouritesPanel purchase={purchase} onOpenService={openService} />
        <StatCards summary={summary.data} />
      </div>
      {purchase.dialog}
    </PageContainer>
  );
}
