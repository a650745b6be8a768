import {
  type LedgerEntryKind,
  type LedgerEntryView,
  ledgerEntryKinds,
  moneyMessages,
} from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download, Plus, ReceiptText } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { DateRangeFields, isBackwards } from '@/components/date-range-fields';
import { FilterSelect } from '@/components/filter-select';
import {
  EntryDate,
  KindBadge,
  ReferenceLink,
  RefundReasonText,
  SignedAmount,
} from '@/components/money/entry-parts';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { type LedgerFilters, ledgerQuery, useExportLedger } from './api';

function Figure({ label, value, hint }: { label: string; value: number | undefined; hint: string }) {
  return (
    <Card className="flex min-w-0 flex-col gap-1 p-4 sm:p-5">
      <p className="text-sm font-medium text-muted-foreground">{label}</p>
      <div className="text-2xl font-bold tracking-tight tabular-nums">
        {value === undefined ? <Skeleton className="mt-1 h-7 w-24" /> : formatDollars(value)}
      </div>
      <p className="text-sm text-muted-foreground">{hint}</p>
    </Card>
  );
}

function EntryRow({ entry }: { entry: LedgerEntryView }) {
  const { t } = useTranslation('money');
  return (
    <TableRow>
      <TableCell className="align-top">
        <EntryDate createdAt={entry.created_at} />
        {/* On a phone the transaction ID sits under the date: five columns do not fit 360 px. */}
        <span className="block font-mono text-xs text-muted-foreground sm:hidden">
          {entry.transaction_id}
        </span>
      </TableCell>
      <TableCell className="hidden align-top font-mono text-xs sm:table-cell">
        {entry.transaction_id}
      </TableCell>
      <TableCell className="align-top">
        <div className="flex flex-col items-start gap-1">
          <KindBadge kind={entry.kind} />
          <RefundReasonText entry={entry} />
          <ReferenceLink reference={entry.reference} />
        </div>
      </TableCell>
      <TableCell className="text-right align-top">
        <SignedAmount dollars={entry.amount} />
        <span className="block text-xs text-muted-foreground tabular-nums sm:hidden">
          {t('ledger.after', { amount: formatDollars(entry.balance_after) })}
        </span>
      </TableCell>
      <TableCell className="hidden text-right align-top tabular-nums sm:table-cell">
        {formatDollars(entry.balance_after)}
      </TableCell>
    </TableRow>
  );
}

/** `/dashboard/balance`: the balance, what live orders hold, and every ledger entry with its transaction ID. */
export function BalancePage() {
  const { t } = useTranslation('money');
  const [filters, setFilters] = useState<LedgerFilters>({});
  const exportLedger = useExportLedger();
  const rangeBackwards = isBackwards(filters);
  const ledger = useInfiniteQuery({ ...ledgerQuery(filters), enabled: !rangeBackwards });
  const firstPage = ledger.data?.pages[0];
  const entries = ledger.data?.pages.flatMap((page) => page.entries);

  function onExport() {
    exportLedger.mutate(filters, {
      onSuccess: () => toast.success(moneyMessages.exported),
      onError: (error) => toast.error(errorMessage(error, moneyMessages.exportFailed)),
    });
  }

  return (
    <PageContainer>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          <Button asChild>
            <Link to="/dashboard/topup">
              <Plus aria-hidden="true" />
              {t('page.topUp')}
            </Link>
          </Button>
        }
      />
      <section
        aria-label={t('figures.label')}
        className="mb-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:gap-4"
      >
        <Figure label={t('figures.balance')} value={firstPage?.balance} hint={t('figures.balanceHint')} />
        <Figure label={t('figures.reserved')} value={firstPage?.reserved} hint={t('figures.reservedHint')} />
      </section>

      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <div className="flex flex-wrap items-end gap-3">
          <h2 className="mr-auto flex items-center gap-2 text-lg font-semibold">
            <ReceiptText className="size-5 text-primary" aria-hidden="true" />
            {t('ledger.title')}
          </h2>
          <Button
            variant="outline"
            onClick={onExport}
            busy={exportLedger.isPending}
            disabled={rangeBackwards}
          >
            {!exportLedger.isPending && <Download aria-hidden="true" />}
            {t('ledger.export')}
          </Button>
        </div>
        <form
          className="grid grid-cols-1 gap-3 sm:grid-cols-3"
          aria-label={t('ledger.filters')}
          onSubmit={(event) => event.preventDefault()}
        >
          <FilterSelect
            label={t('ledger.kind')}
            value={filters.kind}
            onChange={(kind) =>
              setFilters((current) => ({ ...current, kind: kind as LedgerEntryKind | undefined }))
            }
            options={ledgerEntryKinds.map((kind) => ({ value: kind, label: t(`kind.${kind}`) }))}
            anyLabel={t('ledger.allKinds')}
          />
          <DateRangeFields
            value={filters}
            onChange={(range) => setFilters((current) => ({ ...current, from: range.from, to: range.to }))}
          />
        </form>
        {rangeBackwards && (
          <Alert variant="destructive">
            <AlertDescription>{moneyMessages.badDateRange}</AlertDescription>
          </Alert>
        )}
        {ledger.isError && !entries && (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(ledger.error, moneyMessages.fetchLedgerFailed)}</AlertDescription>
          </Alert>
        )}
        {!rangeBackwards && ledger.isPending && <SkeletonRows count={5} rowClassName="h-12 rounded-lg" />}
        {entries && entries.length === 0 && (
          <p className="rounded-lg border border-dashed px-6 py-10 text-center text-sm text-muted-foreground">
            {moneyMessages.noEntries}
          </p>
        )}
        {entries && entries.length > 0 && (
          <Table aria-label={t('ledger.title')}>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">{t('ledger.date')}</TableHead>
                <TableHead scope="col" className="hidden sm:table-cell">
                  {t('ledger.transactionId')}
                </TableHead>
                <TableHead scope="col">{t('ledger.kind')}</TableHead>
                <TableHead scope="col" className="text-right">
                  {t('ledger.amount')}
                </TableHead>
                <TableHead scope="col" className="hidden text-right sm:table-cell">
                  {t('ledger.balanceAfter')}
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </TableBody>
          </Table>
        )}
        {ledger.hasNextPage && (
          <Button
            variant="outline"
            className="self-center"
            busy={ledger.isFetchingNextPage}
            onClick={() => void ledger.fetchNextPage()}
          >
            {t('ledger.more')}
          </Button>
        )}
      </Card>
    </PageContainer>
  );
}
