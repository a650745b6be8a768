import { NUMBERS_REFRESH_MS, numberMessages, type PurchasedNumber } from '@simcode/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Inbox, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useConfirmCharge } from '@/components/confirm-charge';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDollars, formatPhone, withArticle } from '@/lib/format';
import { cancelThenRepeat } from '@/lib/replace';
import { useNow } from '@/lib/use-now';
import { dashboardKeys } from '../dashboard/api';
import { cancelNumber, numbersKeys, numbersQuery, repeatNumber } from './api';
import { type NumberActions, NumberCard } from './number-card';
import { isLive } from './status-text';

function NumberSection({
  title,
  numbers,
  now,
  actions,
}: {
  title: string;
  numbers: PurchasedNumber[];
  now: number;
  actions: NumberActions;
}) {
  if (numbers.length === 0) return null;
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">
        {title} <span className="text-sm font-normal text-muted-foreground">({numbers.length})</span>
      </h2>
      <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {numbers.map((number) => (
          <li key={number.id} aria-label={`${number.service_name} number in ${number.country_name}`}>
            <NumberCard number={number} now={now} actions={actions} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function NumbersPage() {
  const queryClient = useQueryClient();
  const now = useNow();
  // Refresh every 20 s, only while there is something to refresh (spec section 4).
  const numbers = useQuery({
    ...numbersQuery,
    refetchInterval: (query) => (query.state.data?.numbers.length ? NUMBERS_REFRESH_MS : false),
  });
  const [busy, setBusy] = useState<NumberActions['busy']>(null);
  const charge = useConfirmCharge();

  function refetchAll() {
    void queryClient.invalidateQueries({ queryKey: numbersKeys.list });
    void queryClient.invalidateQueries({ queryKey: ['number-status'] });
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.summary });
  }

  async function onCancel(number: PurchasedNumber) {
    setBusy({ id: number.id, action: 'cancel' });
    try {
      await cancelNumber(number.id);
      toast.success(numberMessages.canceled);
    } catch (error) {
      toast.error(errorMessage(error, numberMessages.cancelFailed));
    } finally {
      setBusy(null);
      refetchAll();
    }
  }

  // Replace: asked first (it buys again), then cancel, then repeat; a failed cancel stops there.
  async function onReplace(number: PurchasedNumber) {
    const confirmed = await charge.confirm({
      title: `Replace this ${number.service_name} number?`,
      description: `${number.number ? formatPhone(number.number) : 'This number'} is canceled and its price comes back to your balance; then ${withArticle(number.service_name)} number in ${number.country_name} is bought at today's price.`,
      price: formatDollars(number.price),
      action: 'Replace',
    });
    if (!confirmed) return;
    setBusy({ id: number.id, action: 'replace' });
    try {
      await cancelThenRepeat({
        cancel: () => cancelNumber(number.id),
        repeat: () => repeatNumber(number.id),
        messages: numberMessages,
      });
    } finally {
      setBusy(null);
      refetchAll();
    }
  }

  const list = numbers.data?.numbers;
  return (
    <PageContainer>
      <PageHeader
        title="My Numbers"
        description="Your one-time numbers. Codes appear here as soon as they arrive; numbers without a code are refunded after 20 minutes."
        actions={
          <Button asChild>
            <Link to="/dashboard">
              <Plus aria-hidden="true" />
              Buy a number
            </Link>
          </Button>
        }
      />
      {numbers.isPending && (
        <SkeletonRows
          count={4}
          className="grid grid-cols-1 gap-4 lg:grid-cols-2"
          rowClassName="h-52 rounded-xl"
        />
      )}
      {numbers.isError && !list && (
        <Alert variant="destructive">
          <AlertDescription>
            {errorMessage(numbers.error, numberMessages.fetchNumbersFailed)}
          </AlertDescription>
        </Alert>
      )}
      {list && list.length === 0 && (
        <div className="flex flex-col items-center rounded-xl border border-dashed bg-white px-6 py-16 text-center">
          <Inbox className="size-10 text-indigo-300" aria-hidden="true" />
          <h2 className="mt-4 text-lg font-semibold">No numbers yet</h2>
          <p className="mt-1 max-w-sm text-sm text-muted-foreground">
            Buy a number on the dashboard: pick a country and a service, and your code shows up here.
          </p>
          <Button asChild className="mt-6">
            <Link to="/dashboard">Go to the dashboard</Link>
          </Button>
        </div>
      )}
      {list && list.length > 0 && (
        <div className="flex flex-col gap-8">
          <NumberSection
            title="Active"
            numbers={list.filter(isLive)}
            now={now}
            actions={{ busy, onCancel, onReplace }}
          />
          <NumberSection
            title="History"
            numbers={list.filter((number) => !isLive(number))}
            now={now}
            actions={{ busy, onCancel, onReplace }}
          />
        </div>
      )}
      {charge.dialog}
    </PageContainer>
  );
}
