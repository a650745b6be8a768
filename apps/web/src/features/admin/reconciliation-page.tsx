import { adminRoutes, formatCents, type ReconciliationMismatchView } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Download, Play } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { EmptyText } from '@/components/empty-text';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { reconciliationQuery, useExportReconciliation, useMismatchAction, useRunReconciliation } from './api';
import { LoadError, percent } from './parts';

const DAY_MS = 24 * 60 * 60_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dollars = (cents: number) => cents / 100;

function MismatchActions({ mismatch }: { mismatch: ReconciliationMismatchView }) {
  const { t } = useTranslation('admin');
  const action = useMismatchAction(mismatch.id);
  const done = t('reconciliation.actionDone');
  const run = (kind: 'retry_cancel' | 'write_off' | 'dispute') => async (reason: string) => {
    await action.mutateAsync({ action: kind, reason });
    return { message: done };
  };
  const subject = { id: mismatch.provider_order_id, provider: mismatch.provider };
  return (
    <div className="flex flex-wrap gap-1.5">
      {mismatch.order_id !== null && mismatch.cause !== 'billed_but_returned' && (
        <ActionDialog
          label={t('reconciliation.retryCancel')}
          size="sm"
          title={t('reconciliation.retryCancelTitle', subject)}
          description={t('reconciliation.retryCancelDescription')}
          confirmLabel={t('reconciliation.retryCancel')}
          run={run('retry_cancel')}
        />
      )}
      <ActionDialog
        label={t('reconciliation.writeOff')}
        size="sm"
        title={t('reconciliation.writeOffTitle', subject)}
        description={t('reconciliation.writeOffDescription')}
        confirmLabel={t('reconciliation.writeOff')}
        destructive
        run={run('write_off')}
      />
      <ActionDialog
        label={t('reconciliation.dispute')}
        size="sm"
        title={t('reconciliation.disputeTitle', subject)}
        description={t('reconciliation.disputeDescription')}
        confirmLabel={t('reconciliation.dispute')}
        reasonLabel={t('reconciliation.disputeNote')}
        run={run('dispute')}
      />
    </div>
  );
}

/**
 * `/admin/reconciliation`: per supplier and UTC day, what we bought, what the supplier charged and gave back,
 * what our customers were refunded and what leaked; each mismatch with its order and the actions on it.
 */
export function ReconciliationPage() {
  const { t } = useTranslation('admin');
  const fromId = useId();
  const toId = useId();
  const yesterday = utcDay(Date.now() - DAY_MS);
  const [from, setFrom] = useState(utcDay(Date.now() - 7 * DAY_MS));
  const [to, setTo] = useState(utcDay(Date.now()));
  const report = useQuery(reconciliationQuery(from, to));
  const runNow = useRunReconciliation();
  const exportCsv = useExportReconciliation();

  async function reconcile() {
    try {
      await runNow.mutateAsync(yesterday);
      toast.success(t('reconciliation.ran', { day: yesterday }));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  async function download() {
    try {
      await exportCsv.mutateAsync({ from, to });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <>
      <PageHeader title={t('nav.reconciliation')} description={t('reconciliation.description')} />
      <Card className="mb-4 flex flex-wrap items-end gap-3 p-4">
        <Field id={fromId} label={t('reconciliation.from')}>
          <Input
            id={fromId}
            type="date"
            value={from}
            max={to}
            onChange={(event) => setFrom(event.target.value)}
          />
        </Field>
        <Field id={toId} label={t('reconciliation.to')}>
          <Input
            id={toId}
            type="date"
            value={to}
            min={from}
            onChange={(event) => setTo(event.target.value)}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={reconcile} disabled={runNow.isPending}>
            <Play aria-hidden="true" />
            {t('reconciliation.runYesterday')}
          </Button>
          <Button variant="outline" onClick={download} disabled={exportCsv.isPending}>
            <Download aria-hidden="true" />
            {t('reconciliation.csv')}
          </Button>
        </div>
      </Card>
      {report.isPending && <SkeletonRows count={3} rowClassName="h-12 rounded-md" />}
      {report.isError && !report.data && <LoadError error={report.error} />}
      {report.data && (
        <div className="flex min-w-0 flex-col gap-6">
          <section className="min-w-0">
            <h2 className="mb-2 text-lg font-semibold">{t('reconciliation.days')}</h2>
            {report.data.days.length === 0 ? (
              <EmptyText>{t('reconciliation.noDays')}</EmptyText>
            ) : (
              <Table aria-label={t('reconciliation.days')}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('reconciliation.day')}</TableHead>
                    <TableHead>{t('reconciliation.supplier')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.bought')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.cost')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.returned')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.refunded')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.leakage')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.balanceChange')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.mismatches')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {report.data.days.map((day) => (
                    <TableRow key={`${day.provider}:${day.day}`}>
                      <TableCell className="whitespace-nowrap">
                        {day.day}
                        {day.complete === false && (
                          <Badge variant="warning" className="ml-2">
                            {t('reconciliation.incomplete')}
                          </Badge>
                        )}
                      </TableCell>
                      <TableCell>{day.provider}</TableCell>
                      <TableCell className="text-right">{formatNumber(day.bought)}</TableCell>
                      <TableCell className="text-right">
                        <Money dollars={dollars(day.cost_cents)} />
                      </TableCell>
                      <TableCell className="text-right">
                        <Money dollars={dollars(day.returned_cents)} />
                      </TableCell>
                      <TableCell className="text-right">
                        <Money dollars={dollars(day.refunded_cents)} />
                      </TableCell>
                      <TableCell className="text-right whitespace-nowrap">
                        <Money dollars={dollars(day.leakage_cents)} /> ({percent(day.leakage_percent / 100)})
                      </TableCell>
                      <TableCell className="text-right">
                        {day.balance_change_cents === null ? (
                          '—'
                        ) : (
                          <span className="inline-flex flex-col items-end gap-1">
                            <Money dollars={dollars(day.balance_change_cents)} />
                            {day.unexplained_cents !== 0 && day.unexplained_cents !== null && (
                              <Badge variant="warning" className="whitespace-nowrap">
                                {t('reconciliation.unexplained', {
                                  amount: formatCents(day.unexplained_cents),
                                })}
                              </Badge>
                            )}
                          </span>
                        )}
                      </TableCell>
                      <TableCell className="text-right">{formatNumber(day.mismatches)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </section>
          <section className="min-w-0">
            <h2 className="mb-2 text-lg font-semibold">{t('reconciliation.mismatchList')}</h2>
            {report.data.mismatches.length === 0 ? (
              <EmptyText>{t('reconciliation.noMismatches')}</EmptyText>
            ) : (
              <Table aria-label={t('reconciliation.mismatchList')}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('reconciliation.day')}</TableHead>
                    <TableHead>{t('reconciliation.supplier')}</TableHead>
                    <TableHead>{t('reconciliation.order')}</TableHead>
                    <TableHead>{t('reconciliation.cause')}</TableHead>
                    <TableHead className="text-right">{t('reconciliation.amount')}</TableHead>
                    <TableHead>{t('reconciliation.state')}</TableHead>
                    <TableHead>{t('reconciliation.actions')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {report.data.mismatches.map((mismatch) => (
                    <TableRow key={mismatch.id}>
                      <TableCell className="whitespace-nowrap">{mismatch.day}</TableCell>
                      <TableCell>{mismatch.provider}</TableCell>
                      <TableCell className="whitespace-nowrap">
                        {mismatch.order_id === null ? (
                          <span className="text-muted-foreground">
                            {t('reconciliation.noOrder', { id: mismatch.provider_order_id })}
                          </span>
                        ) : (
                          <Link to={adminRoutes.order(mismatch.order_id)} className={linkClass}>
                            #{mismatch.order_id}
                          </Link>
                        )}
                      </TableCell>
                      <TableCell>{t(`reconciliation.causes.${mismatch.cause}`)}</TableCell>
                      <TableCell className="text-right">
                        <Money dollars={dollars(mismatch.amount_cents)} />
                      </TableCell>
                      <TableCell>
                        <Badge variant={mismatch.state === 'open' ? 'warning' : 'muted'}>
                          {t(`reconciliation.states.${mismatch.state}`)}
                        </Badge>
                        {mismatch.note && (
                          <span className="mt-1 block text-xs break-words text-muted-foreground">
                            {mismatch.note}
                          </span>
                        )}
                      </TableCell>
                      <TableCell>
                        {mismatch.state === 'open' && <MismatchActions mismatch={mismatch} />}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </section>
        </div>
      )}
    </>
  );
}
