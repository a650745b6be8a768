import { type AdminPaymentProvidersResponse, paymentProviderBrand } from '@simcode/contract';
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
import { formatNumber } from '@/lib/format';
import { paymentProvidersQuery } from './api';
import { Fact, Facts, LoadError } from './parts';

type PaymentProvider = AdminPaymentProvidersResponse['providers'][number];

/** What the merchant holds at the processor, per coin, in the processor's own figures. */
function ProcessorBalances({ balances }: { balances: PaymentProvider['balances'] }) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  return (
    <div className="flex flex-col gap-1">
      <h3 id={headingId} className="text-sm font-semibold">
        {t('paymentProviders.balance')}
      </h3>
      {balances === null || balances.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {t(balances === null ? 'paymentProviders.balanceUnknown' : 'paymentProviders.balanceEmpty')}
        </p>
      ) : (
        <ul aria-labelledby={headingId} className="flex flex-col gap-0.5 text-sm tabular-nums">
          {balances.map((balance) => (
            <li key={balance.currency}>
              {balance.amount} {balance.currency}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PaymentProviderCard({ provider }: { provider: PaymentProvider }) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  return (
    <Card className="flex min-w-0 flex-col gap-4 p-4 sm:p-5" role="region" aria-labelledby={headingId}>
      <div className="min-w-0">
        <h2 id={headingId} className="text-lg font-semibold break-words">
          {paymentProviderBrand(provider.name)}
        </h2>
        <p className="mt-1 flex flex-wrap gap-1.5">
          <Badge variant="muted">{provider.kind}</Badge>
          {provider.up ? (
            <Badge variant="success">{t('paymentProviders.up')}</Badge>
          ) : (
            <Badge variant="destructive">{t('paymentProviders.down')}</Badge>
          )}
          <Badge variant="info">
            {t(
              provider.deposit_addresses
                ? 'paymentProviders.depositAddresses'
                : 'paymentProviders.invoicesOnly',
            )}
          </Badge>
        </p>
      </div>
      <Facts>
        <Fact label={t('paymentProviders.todayPayments')}>{formatNumber(provider.today.payments)}</Fact>
        <Fact label={t('paymentProviders.todayCredited')}>{formatNumber(provider.today.credited)}</Fact>
        <Fact label={t('paymentProviders.todayVolume')}>
          <Money dollars={provider.today.credited_amount} />
        </Fact>
        <Fact label={t('paymentProviders.downSince')}>
          {provider.down_since ? <DateTime value={provider.down_since} /> : '—'}
        </Fact>
        <Fact label={t('paymentProviders.lastErrorCode')}>{provider.last_error_code ?? '—'}</Fact>
      </Facts>
      <ProcessorBalances balances={provider.balances} />
      <div className="flex flex-col gap-1">
        <h3 className="text-sm font-semibold">{t('paymentProviders.lastError')}</h3>
        <p className="text-sm break-words text-muted-foreground">
          {provider.last_error ?? t('paymentProviders.none')}
        </p>
      </div>
    </Card>
  );
}

/** `/admin/payment-providers`: each payment provider's health, balance at the processor and today's payments. */
export function PaymentProvidersPage() {
  const { t } = useTranslation('admin');
  const providers = useQuery(paymentProvidersQuery);
  return (
    <>
      <PageHeader title={t('nav.paymentProviders')} description={t('paymentProviders.description')} />
      {providers.isPending && <SkeletonRows count={2} rowClassName="h-48 rounded-xl" />}
      {providers.isError && !providers.data && <LoadError error={providers.error} />}
      {providers.data && providers.data.providers.length === 0 && (
        <EmptyText>{t('paymentProviders.noProvider')}</EmptyText>
      )}
      {providers.data && (
        <div className="grid min-w-0 grid-cols-1 gap-4 xl:grid-cols-2 lg:gap-6">
          {providers.data.providers.map((provider) => (
            <PaymentProviderCard key={provider.name} provider={provider} />
          ))}
        </div>
      )}
    </>
  );
}
