import type { AdminProvider } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { SkeletonRows } from '@/components/ui/skeleton';
import { AutoRenewSwitch } from '@/features/rentals/auto-renew-switch';
import { ActionDialog } from './action-dialog';
import { type ProviderRoutingResponse, providerActions, providersQuery, useAdminAction } from './api';
import { DateTime, duration, EmptyText, Fact, LoadError, Money, percent } from './parts';

function RoutingSwitch({ provider }: { provider: AdminProvider }) {
  const id = useId();
  const routing = useAdminAction<string, ProviderRoutingResponse>((reason) =>
    providerActions.routing(provider.name)({ in_routing: !provider.in_routing, reason }),
  );
  const taking = provider.in_routing;
  return (
    <ActionDialog
      label={taking ? 'Take out of routing' : 'Put back in routing'}
      trigger={(open) => (
        <AutoRenewSwitch
          id={id}
          checked={provider.in_routing}
          onCheckedChange={open}
          label={`${provider.name} in routing`}
        />
      )}
      title={taking ? `Take ${provider.name} out of routing?` : `Put ${provider.name} back in routing?`}
      description={
        taking
          ? `No new purchase or rent goes to ${provider.name}: its stock and prices leave the shop. Numbers already bought there keep working.`
          : `${provider.name}'s stock and prices return to the shop, and purchases are routed to it again by price and delivery.`
      }
      confirmLabel={taking ? 'Take out of routing' : 'Put back in routing'}
      destructive={taking}
      run={(reason) => routing.mutateAsync(reason)}
    />
  );
}

function ProviderCard({ provider }: { provider: AdminProvider }) {
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
              <Badge variant="success">In routing</Badge>
            ) : (
              <Badge variant="destructive">Out of routing</Badge>
            )}
            {provider.rents && <Badge variant="info">Rents</Badge>}
            {cooling && <Badge variant="warning">Cooling down</Badge>}
          </p>
        </div>
        <RoutingSwitch provider={provider} />
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Fact label="Balance">
          {provider.balance === null ? (
            <span className="text-muted-foreground">Unknown</span>
          ) : (
            <Money dollars={provider.balance} />
          )}
        </Fact>
        <Fact label="Calls">{health.calls.toLocaleString('en-US')}</Fact>
        <Fact label="Latency">{duration(health.average_latency_ms)}</Fact>
        <Fact label="Error rate">{percent(health.error_rate)}</Fact>
        <Fact label="No numbers">{percent(health.no_numbers_rate)}</Fact>
        <Fact label="Delivery rate">{percent(health.delivery_rate)}</Fact>
        <Fact label="Time to code">{duration(health.time_to_code_ms)}</Fact>
        <Fact label="Cooling until">
          {health.cooling_until ? <DateTime value={health.cooling_until} /> : '—'}
        </Fact>
      </dl>
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Recent errors</h3>
        {provider.recent_errors.length === 0 ? (
          <p className="text-sm text-muted-foreground">None.</p>
        ) : (
          <ul className="flex flex-col gap-1.5 text-sm" aria-label={`Recent errors of ${provider.name}`}>
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
  const providers = useQuery(providersQuery);
  return (
    <>
      <PageHeader
        title="Providers"
        description="The SMS providers numbers are bought from: their balance, how they answer, and whether purchases go to them."
      />
      {providers.isPending && <SkeletonRows count={2} rowClassName="h-64 rounded-xl" />}
      {providers.isError && !providers.data && <LoadError error={providers.error} />}
      {providers.data && providers.data.providers.length === 0 && (
        <EmptyText>No provider is configured.</EmptyText>
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
