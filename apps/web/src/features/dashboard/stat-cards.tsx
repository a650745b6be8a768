import type { SummaryResponse } from '@simcode/contract';
import { Globe2, ListOrdered, Phone, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';

function StatCard({
  label,
  value,
  icon,
  hint,
  detail,
  to,
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  hint: string;
  /** A visible line under the figure, when the figure needs one to be read right. */
  detail?: string;
  /** The page with the figure's details; the whole card links there. */
  to?: string;
}) {
  const card = (
    // On a phone the icon sits above the figure, so a balance like $10,000.00 fits whole in half the width.
    <Card
      className={cn(
        'flex min-w-0 flex-col items-start gap-2 p-4 sm:flex-row sm:items-center sm:gap-4 sm:p-5',
        to && 'h-full transition-colors group-hover:border-primary/50',
      )}
    >
      <span
        className="flex size-9 shrink-0 sm:size-11 items-center justify-center rounded-xl bg-secondary text-primary [&_svg]:size-5"
        aria-hidden="true"
      >
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <div className="text-xl font-bold tracking-tight break-words tabular-nums sm:text-2xl">{value}</div>
        {detail && <p className="text-xs text-muted-foreground">{detail}</p>}
        <p className="sr-only">{hint}</p>
      </div>
    </Card>
  );
  if (!to) return card;
  return (
    <Link
      to={to}
      className="group min-w-0 rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      {card}
    </Link>
  );
}

/**
 * Balance, Orders, Numbers and Total Countries (spec section 2). Numbers counts rents too, so the card says
 * how many of them are the one-time numbers listed beside the Buy panel.
 */
export function StatCards({ summary }: { summary: SummaryResponse | undefined }) {
  const { t } = useTranslation('dashboard');
  const value = (content: ReactNode) => (summary ? content : <Skeleton className="mt-1 h-7 w-16" />);
  return (
    <section aria-label={t('stats.summary')} className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4">
      <StatCard
        label={t('stats.balance')}
        icon={<Wallet />}
        value={value(formatDollars(summary?.balance ?? 0))}
        hint={t('stats.balanceHint')}
        to="/dashboard/balance"
      />
      <StatCard
        label={t('stats.orders')}
        icon={<ListOrdered />}
        value={value(summary?.totalOrders)}
        hint={t('stats.ordersHint')}
      />
      <StatCard
        label={t('stats.numbers')}
        icon={<Phone />}
        value={value(summary?.totalNumbers)}
        hint={t('stats.numbersHint')}
        detail={
          summary && summary.totalNumbers > 0
            ? t('stats.numbersSplit', { oneTime: summary.liveOneTime, rented: summary.liveRented })
            : undefined
        }
      />
      <StatCard
        label={t('stats.countries')}
        icon={<Globe2 />}
        value={value(summary?.totalCountries)}
        hint={t('stats.countriesHint')}
      />
    </section>
  );
}
