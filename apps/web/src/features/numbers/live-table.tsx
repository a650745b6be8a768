import type { PurchasedNumber } from '@simcode/contract';
import { ReceiptText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/copy-button';
import { FinishNumber } from '@/components/orders/finish-number';
import { useNumberState } from '@/components/orders/use-number-state';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatMinutesSeconds, formatPhone } from '@/lib/format';
import { countryName } from '@/lib/names';
import { CancelReplace, type NumberActions, useCancelBlockText } from './number-card';
import { ReportProblem } from './report-problem';

/** One live number as a row: what a buyer with many numbers scans for, and the same actions as its card. */
function LiveRow({ number, now, actions }: { number: PurchasedNumber; now: number; actions: NumberActions }) {
  const { t } = useTranslation('numbers');
  const { statusText, code, secondsLeft, cancelBlock, cancelOpensIn } = useNumberState(number, now);
  const { blockedReason } = useCancelBlockText(cancelBlock, cancelOpensIn);
  return (
    <TableRow data-testid="live-row">
      <TableCell className="font-medium">{number.service_name}</TableCell>
      <TableCell>{countryName(number.country, number.country_name)}</TableCell>
      <TableCell>
        {number.number ? (
          <CopyButton value={formatPhone(number.number)} what="Number" className="gap-1.5 font-mono" />
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell aria-live="polite">
        {code ? (
          <CopyButton value={code} what="Code" className="gap-1.5 font-mono font-bold text-green-800">
            <span data-testid="number-code">{code}</span>
          </CopyButton>
        ) : (
          <span className="text-sm">{statusText}</span>
        )}
      </TableCell>
      <TableCell className="tabular-nums">
        {secondsLeft > 0 ? formatMinutesSeconds(secondsLeft) : '—'}
      </TableCell>
      <TableCell>
        <div className="flex justify-end gap-2">
          <CancelReplace number={number} blockedReason={blockedReason} actions={actions} />
          <FinishNumber number={number} />
          <ReportProblem number={number} cancelOpensIn={cancelOpensIn} compact />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => actions.onDetails(number)}
            aria-label={t('card.detailsLabel', { id: number.id })}
          >
            <ReceiptText aria-hidden="true" />
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}

/**
 * Live numbers as a dense table (issue 34), for buyers with many at once: a row each, the code where the
 * status was, the card's actions at the end. Wide screens only; phones and tablets keep the cards.
 */
export function LiveNumbersTable({
  numbers,
  now,
  actions,
}: {
  numbers: PurchasedNumber[];
  now: number;
  actions: NumberActions;
}) {
  const { t } = useTranslation('numbers');
  return (
    <div className="overflow-hidden rounded-xl border bg-white">
      <Table aria-label={t('table.label')}>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">{t('table.service')}</TableHead>
            <TableHead scope="col">{t('table.country')}</TableHead>
            <TableHead scope="col">{t('card.number')}</TableHead>
            <TableHead scope="col">{t('table.statusOrCode')}</TableHead>
            <TableHead scope="col">{t('card.timeLeft')}</TableHead>
            <TableHead scope="col">
              <span className="sr-only">{t('table.actions')}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {numbers.map((number) => (
            <LiveRow key={number.id} number={number} now={now} actions={actions} />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
