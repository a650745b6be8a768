import type { AdminProvider } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '@/components/date-time';
import { EmptyText } from '@/components/empty-text';
import { Money } from '@/components/money/money';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { SkeletonRows } from '@/components/ui/skeleton';
import { LabelledSwitch } from '@/components/ui/switch';
import { formatNumber } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { providersQuery, useSetRouting } from './api';
import { duration, Fact, LoadError, percent } from './parts';

function RoutingSwitch({ provider }: { provider: AdminProvider }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const routing = useSetRouting(provider.name);
  const taking = provider.in_routing;
  const name = { provider: provider.name };
  return (
    <ActionDialog
      label={t(taking ? 'providers.takeOut' : 'providers.putBack')}
      trigger={(open) => (
        <LabelledSwitch
          id={id}
          checked={provider.in_routing}
          onCheckedChange={open}
          label={t('providers.inRoutingSwitch', name)}
        />
      )}
      title={t(taking ? 'providers.takeOutTitle' : 'providers.putBackTitle', name)}
      description={t(taking ? 'providers.takeOutDescription' : 'providers.putBackDescription', name)}
      confirmLabel={t(taking ? 'providers.takeOut' : 'providers.putBack')}
      destructive={taking}
      run={(reason) => routing.mutateAsync({ in_routing: !provider.in_routing, reason })}
    />
  );
}

function ProviderCard({ provider }: { provider: AdminProvider }) {
  const { t } = useTranslation('admin');
  const { health } = provider;
  const headingId = useId();
  const cooling = health.cooling_until && new Date(health.cooling_until).getTime() > Date.now();
  return (
    <Card className="flex min-w-0 flex-col gap-4 p-4 sm:p-5" role="region" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words">
            {provider.name}
          </h2>
          <p className="mt-1 flex flex-wrap gap-1.5">
            <Badge variant="muted">{provider.kind}</Badge>
            {provider.in_routing ? (
              <Badge variant="success">{t('providers.inRouting')}</Badge>
            ) : (
              <Badge variant="destructive">{t('providers.outOfRouting')}</Badge>
            )}
            {provider.rents && <Badge variant="info">{t('providers.rents')}</Badge>}
            {cooling && <Badge variant="warning">{t('providers.cooling')}</Badge>}
          </p>
        </div>
        <RoutingSwitch provider={provider} />
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Fact label={t('providers.balance')}>
          {provider.balance === null ? (
            <span className="text-muted-foreground">{t('providers.unknown')}</span>
          ) : (
            <Money dollars={provider.balance} />
          )}
        </Fact>
        <Fact label={t('providers.calls')}>
          {formatNumber(health.calls)}
          {health.instances > 1 && (
            <span className="block text-xs font-normal text-muted-foreground">
              {t('providers.instancesCounted', { count: health.instances })}
            </span>
          )}
        </Fact>
        <Fact label={t('providers.latency')}>{duration(health.average_latency_ms)}</Fact>
        <Fact label={t('providers.errorRate')}>{percent(health.error_rate)}</Fact>
        <Fact label={t('providers.noNumbers')}>{percent(health.no_numbers_rate)}</Fact>
        <Fact label={t('providers.deliveryRate')}>{percent(health.delivery_rate)}</Fact>
        <Fact label={t('providers.timeToCode')}>{duration(health.time_to_code_ms)}</Fact>
        <Fact label={t('providers.lateSms')}>{formatNumber(provider.late_sms)}</Fact>
        <Fact label={t('providers.coolingUntil')}>
          {health.cooling_until ? <DateTime value={health.cooling_until} /> : '—'}
        </Fact>
      </dl>
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">{t('providers.recentErrors')}</h3>
        {provider.recent_errors.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('providers.none')}</p>
        ) : (
          <ul
            className="flex flex-col gap-1.5 text-sm"
            aria-label={t('providers.recentErrorsOf', { provider: provider.name })}
          >
            {provider.recent_errors.map((error, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: errors are listed as they came, newest first.
              <li key={index} className="min-w-0 rounded-md bg-red-50 px-3 py-2">
                <span className="block text-xs text-red-800">
                  <DateTime value={error.at} />
                </span>
                <span className="break-words text-red-950">{error.message}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

/** `/admin/providers`: each SMS provider's balance and health, and whether purchases are routed to it. */
export function ProvidersPage() {
  const { t } = useTranslation('admin');
  const providers = useQuery(providersQuery);
  return (
    <>
      <PageHeader title={t('nav.providers')} description={t('providers.description')} />
      <p className="max-w-prose text-sm text-muted-foreground">{t('providers.healthNote')}</p>
      {providers.isPending && <SkeletonRows count={2} rowClassName="h-64 rounded-xl" />}
      {providers.isError && !providers.data && <LoadError error={providers.error} />}
      {providers.data && providers.data.providers.length === 0 && (
        <EmptyText>{t('providers.noProvider')}</EmptyText>
      )}
      {providers.data && (
        <div className="grid min-w-0 grid-cols-1 gap-4 xl:grid-cols-2 lg:gap-6">
          {providers.data.providers.map((provider) => (
            <ProviderCard key={provider.name} provider={provider} />
          ))}
        </div>
      )}
    </>
  );
}
