import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { SkeletonRows } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { apiKeyLogQuery } from './api';

const STATUS_VARIANTS: Record<string, BadgeVariant> = {
  pending: 'warning',
  delivered: 'success',
  failed: 'destructive',
};

/** A key's webhook deliveries and refusals, newest first. */
export function KeyLog({ keyId }: { keyId: number }) {
  const { t } = useTranslation('apiKeys');
  const log = useQuery(apiKeyLogQuery(keyId));
  if (!log.data) return <SkeletonRows count={2} />;
  const { deliveries, events } = log.data;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <section aria-label={t('log.deliveries')}>
        <h3 className="mb-2 text-sm font-semibold">{t('log.deliveries')}</h3>
        {deliveries.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('log.noDeliveries')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {deliveries.map((delivery) => (
              <li key={delivery.id} className="rounded-md border px-3 py-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant={STATUS_VARIANTS[delivery.status]}>
                    {t(`log.statuses.${delivery.status}`)}
                  </Badge>
                  <span className="font-medium">{t(`log.kinds.${delivery.kind}`)}</span>
                  <span className="text-muted-foreground">{formatDateTime(delivery.created_at)}</span>
                </div>
                <p className="mt-1 text-muted-foreground">
                  {t('log.attempts', { count: delivery.attempts })}
                  {delivery.last_status_code !== null && ` · HTTP ${delivery.last_status_code}`}
                  {delivery.next_attempt_at &&
                    ` · ${t('log.nextAttempt', { time: formatDateTime(delivery.next_attempt_at) })}`}
                </p>
                {delivery.last_error && (
                  <p className="mt-1 break-words text-destructive">{delivery.last_error}</p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-label={t('log.events')}>
        <h3 className="mb-2 text-sm font-semibold">{t('log.events')}</h3>
        {events.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('log.noEvents')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {events.map((event) => (
              <li key={`${event.at}-${event.detail}`} className="rounded-md border px-3 py-2 text-sm">
                <p className="text-muted-foreground">{formatDateTime(event.at)}</p>
                <p className="break-words">{event.detail}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
