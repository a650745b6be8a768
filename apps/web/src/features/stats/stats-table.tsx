import { type StatsRow, statsCountryPath, statsServicePath } from '@simcode/contract';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { currentLanguage } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { percentText, secondsText, trendText } from './format';

type Column = 'service' | 'country' | 'rate' | 'median' | 'p90' | 'refunds' | 'settled' | 'trend';
type Direction = 'ascending' | 'descending';

/** A column's sort key: names as text, figures as numbers; a "new" figure (null) sorts last either way. */
function keyOf(row: StatsRow, column: Column): string | number | null {
  switch (column) {
    case 'service':
      return row.service_name;
    case 'country':
      return row.country_name;
    case 'rate':
      return row.delivery_rate;
    case 'median':
      return row.median_seconds;
    case 'p90':
      return row.p90_seconds;
    case 'refunds':
      return row.refund_rate;
    case 'settled':
      return row.settled;
    case 'trend':
      return row.trend;
  }
}

function sorted(rows: readonly StatsRow[], column: Column, direction: Direction): StatsRow[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = keyOf(a, column);
    const right = keyOf(b, column);
    if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
    const order = typeof left === 'string' ? left.localeCompare(String(right)) : left - Number(right);
    return order * sign || b.settled - a.settled;
  });
}

/** Rows drawn at first: a phone draws a few hundred rows fast; the rest come on asking. */
const PAGE_ROWS = 200;

/** The index's rows, sortable by every column; the service and the country link to their pages. */
export function StatsTable({
  rows,
  columns,
  caption,
}: {
  rows: readonly StatsRow[];
  /** 'service' and 'country' may be left out (a service's page lists its countries). */
  columns: readonly Column[];
  caption: string;
}) {
  const { t } = useTranslation('stats');
  const [sort, setSort] = useState<{ column: Column; direction: Direction }>({
    column: 'settled',
    direction: 'descending',
  });
  const [shown, setShown] = useState(PAGE_ROWS);
  const ordered = sorted(rows, sort.column, sort.direction);
  const language = currentLanguage();

  function sortBy(column: Column) {
    setSort((current) =>
      current.column === column
        ? { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : {
            column,
            direction:
              column === 'service' ||
              column === 'country' ||
              column === 'median' ||
              column === 'p90' ||
              column === 'refunds'
                ? 'ascending'
                : 'descending',
          },
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <Table region={caption} className="min-w-[44rem]">
        <caption className="sr-only">{caption}</caption>
        <TableHeader>
          <TableRow>
            {columns.map((column) => {
              const active = sort.column === column;
              return (
                <TableHead
                  key={column}
                  aria-sort={active ? sort.direction : undefined}
                  className={column === 'service' || column === 'country' ? 'text-left' : 'text-right'}
                >
                  <button
                    type="button"
                    onClick={() => sortBy(column)}
                    className="inline-flex items-center gap-1 rounded-sm font-semibold hover:text-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    {t(`columns.${column}`)}
                    {active &&
                      (sort.direction === 'ascending' ? (
                        <ArrowUp className="size-3.5" aria-hidden="true" />
                      ) : (
                        <ArrowDown className="size-3.5" aria-hidden="true" />
                      ))}
                  </button>
                </TableHead>
              );
            })}
          </TableRow>
        </TableHeader>
        <TableBody>
          {ordered.slice(0, shown).map((row) => (
            <TableRow key={`${row.service}|${row.country}`}>
              {columns.map((column) => (
                <TableCell
                  key={column}
                  className={
                    column === 'service' || column === 'country' ? 'text-left' : 'text-right tabular-nums'
                  }
                >
                  <Cell row={row} column={column} language={language} />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {ordered.length > shown && (
        <Button variant="outline" className="self-center" onClick={() => setShown(shown + PAGE_ROWS)}>
          {t('showMore', { count: ordered.length - shown })}
        </Button>
      )}
    </div>
  );
}

function Cell({
  row,
  column,
  language,
}: {
  row: StatsRow;
  column: Column;
  language: ReturnType<typeof currentLanguage>;
}) {
  const { t } = useTranslation('stats');
  const unknown = <span className="text-muted-foreground">–</span>;
  switch (column) {
    case 'service':
      return (
        <Link
          to={statsServicePath(row.service, language)}
          className="font-medium text-primary underline-offset-2 hover:underline"
        >
          {row.service_name}
        </Link>
      );
    case 'country':
      return (
        <Link
          to={statsCountryPath(row.country, language)}
          className="font-medium text-primary underline-offset-2 hover:underline"
        >
          {row.country_name}
        </Link>
      );
    case 'rate':
      return row.delivery_rate === null ? (
        <Badge variant="secondary" title={t('newHint', { count: row.settled })}>
          {t('new')}
        </Badge>
      ) : (
        <span className="font-semibold">{percentText(row.delivery_rate)}</span>
      );
    case 'median':
      return row.median_seconds === null ? unknown : secondsText(row.median_seconds);
    case 'p90':
      return row.p90_seconds === null ? unknown : secondsText(row.p90_seconds);
    case 'refunds':
      return row.refund_rate === null ? unknown : percentText(row.refund_rate);
    case 'settled':
      return <>{formatNumber(row.settled)}</>;
    case 'trend':
      return row.trend === null ? unknown : trendText(row.trend);
  }
}
