import { formatDollars } from '@/lib/format';

/** An amount in dollars, or a dash when there is none. */
export function Money({ dollars }: { dollars: number | null | undefined }) {
  if (dollars === null || dollars === undefined) return <span className="text-muted-foreground">—</span>;
  return <span className="tabular-nums">{formatDollars(dollars)}</span>;
}
