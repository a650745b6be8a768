import { topupMessages } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Clock, Coins, Scale, ShieldAlert, Wallet } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDollars } from '@/lib/format';
import { summaryQuery } from '@/lib/summary-query';
import { AmountForm } from './amount-form';
import { topupMethodsQuery, topupsQuery } from './api';
import { DepositAddresses } from './deposit-address';
import { PaymentMethods, providerName } from './payment-methods';
import { PaymentStatus } from './payment-status';
import { RecentTopups } from './recent-topups';
import { usePaymentFlow } from './use-payment-flow';

function Note({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span
        className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-secondary text-primary [&_svg]:size-[18px]"
        aria-hidden="true"
      >
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-semibold">{title}</p>
        <div className="text-sm text-muted-foreground">{children}</div>
      </div>
    </li>
  );
}

/**
 * The crediting rules, stated before paying because the payment is credited by them: underpaid ones are
 * held (credit-rules.ts), overpaid ones credit the processor's US dollar value (creditFor in service.ts),
 * late ones still credit, and only what the processor attributes to the invoice counts.
 */
const CREDITING_RULES = ['underpaid', 'overpaid', 'late', 'otherCoin'] as const;

/** Crediting times, the crediting rules and the deposit terms (spec section 9, issue 32). */
function TopupNotes() {
  const { t } = useTranslation('topup');
  return (
    <Card className="h-fit">
      <CardHeader>
        <CardTitle>{t('notes.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-4">
          <Note icon={<Coins />} title={t('notes.cryptoTitle')}>
            {t('notes.crypto')}
          </Note>
          <Note icon={<Scale />} title={t('notes.rulesTitle')}>
            <ul aria-label={t('notes.rulesTitle')} className="mt-1 flex list-disc flex-col gap-1 pl-4">
              {CREDITING_RULES.map((rule) => (
                <li key={rule}>{t(`notes.rules.${rule}`)}</li>
              ))}
            </ul>
          </Note>
          <Note icon={<Clock />} title={t('notes.creditingTitle')}>
            {topupMessages.creditingTime}
          </Note>
          <Note icon={<ShieldAlert />} title={t('notes.nonRefundableTitle')}>
            {topupMessages.nonRefundable}
          </Note>
        </ul>
      </CardContent>
    </Card>
  );
}

function BalancePill() {
  const { t } = useTranslation('topup');
  const summary = useQuery(summaryQuery);
  return (
    <div className="flex items-center gap-3 rounded-xl border bg-card px-4 py-2.5 shadow-sm">
      <Wallet className="size-5 text-primary" aria-hidden="true" />
      <div>
        <p className="text-xs font-medium text-muted-foreground">{t('page.currentBalance')}</p>
        <div className="text-lg leading-tight font-bold tabular-nums">
          {summary.data ? formatDollars(summary.data.balance) : <Skeleton className="mt-0.5 h-5 w-16" />}
        </div>
      </div>
    </div>
  );
}

export function TopupPage() {
  const { t } = useTranslation('topup');
  const topups = useQuery(topupsQuery);
  const payment = usePaymentFlow();
  const { stage } = payment.flow;
  // One payment at a time is followed; a closed or ended one may be left for a new one.
  const following =
    stage === 'creating' || stage === 'waiting' || stage === 'blocked' || stage === 'completed';
  const maxAmount = topups.data?.limits.max_amount;
  // The providers that answer now; when the list cannot be had, the server picks the first healthy one.
  const methods = useQuery(topupMethodsQuery);
  const providers = methods.data?.providers ?? [];
  const [chosenProvider, setChosenProvider] = useState<string>();
  // A chosen provider that went down is no longer offered: the first one that answers takes its place.
  const provider = providers.some((entry) => entry.provider === chosenProvider)
    ? chosenProvider
    : providers[0]?.provider;

  // Back from the checkout (`?order=`, in this tab or in the payment window): follow that order to its end.
  const [searchParams, setSearchParams] = useSearchParams();
  const returnedOrderId = searchParams.get('order');
  const returned = topups.data?.payments.find((entry) => entry.order_id === returnedOrderId);
  const { follow } = payment;
  useEffect(() => {
    if (!returned) return;
    follow({
      orderId: returned.order_id,
      url: returned.url ?? '',
      amountCents: Math.round(returned.amount * 100),
    });
    setSearchParams({}, { replace: true });
  }, [returned, follow, setSearchParams]);

  return (
    <PageContainer>
      <PageHeader title={t('page.title')} description={t('page.description')} actions={<BalancePill />} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-6">
        <div className="flex min-w-0 flex-col gap-4">
          <PaymentStatus
            flow={payment.flow}
            checking={payment.checking}
            onCheck={() => void payment.checkNow()}
            onReopen={payment.reopen}
            onDismiss={payment.reset}
          />
          <Card>
            <CardHeader>
              <CardTitle>{t('page.addFunds')}</CardTitle>
              <CardDescription>{t('page.addFundsHint')}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-5">
              {providers.length > 0 && (
                <PaymentMethods
                  providers={providers}
                  selected={provider}
                  disabled={following}
                  onSelect={setChosenProvider}
                />
              )}
              <AmountForm
                maxCents={maxAmount === undefined ? undefined : Math.round(maxAmount * 100)}
                busy={stage === 'creating'}
                disabled={following}
                serverError={payment.error}
                providerBrand={providerName(provider ?? 'cryptomus')}
                onDeposit={(amountCents) => void payment.start(amountCents, provider)}
              />
            </CardContent>
          </Card>
          <DepositAddresses />
        </div>
        <TopupNotes />
      </div>
      <div className="mt-6">
        <RecentTopups
          payments={topups.data?.payments}
          loading={topups.isPending}
          error={topups.error}
          refreshing={topups.isFetching && !topups.isPending}
          onRefresh={() => void topups.refetch()}
          onPay={
            following
              ? undefined
              : (pending) =>
                  pending.url &&
                  payment.resume({
                    orderId: pending.order_id,
                    url: pending.url,
                    amountCents: Math.round(pending.amount * 100),
                  })
          }
        />
      </div>
    </PageContainer>
  );
}
