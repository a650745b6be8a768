import {
  PROBLEM_NOTE_MAX_LENGTH,
  type ProblemKind,
  type PurchasedNumber,
  problemKinds,
} from '@simcode/contract';
import { Flag } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatMinutesSeconds } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useReportProblem } from './api';

/** The support page with one ticket open. */
export function ticketPath(ticketId: number): string {
  return `/dashboard/tickets?ticket=${ticketId}`;
}

/**
 * "Report a problem" on a number that was issued: the kind of problem and an optional note open a support
 * ticket about the order (support sees its history and can refund it). A second report of the same order
 * opens the ticket the first one made. A number still waiting for its code that the service refused as
 * already used is given back and refunded at once instead, once its supplier allows (`cancelOpensIn`).
 */
export function ReportProblem({
  number,
  cancelOpensIn,
  compact = false,
}: {
  number: PurchasedNumber;
  /** Seconds until the number's supplier allows giving it back (0: it does now). */
  cancelOpensIn: number;
  /** The icon alone (a table row); its accessible name stays the full one. */
  compact?: boolean;
}) {
  const { t } = useTranslation('numbers');
  const navigate = useNavigate();
  const noteId = useId();
  const [open, setOpen] = useState(false);
  // Nothing is chosen for the buyer: the report says what they saw, not what the form guessed.
  const [kind, setKind] = useState<ProblemKind | null>(null);
  const [kindMissing, setKindMissing] = useState(false);
  const kindErrorId = useId();
  const [note, setNote] = useState('');
  const report = useReportProblem();
  // Only a number that was issued can be reported: without one there is nothing to look into.
  if (!number.number) return null;
  const refundsNow = kind === 'number_used' && number.status === 'waiting';
  const refundWaits = refundsNow && cancelOpensIn > 0;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (report.isPending) return;
    if (kind === null) {
      setKindMissing(true);
      return;
    }
    report.mutate(
      { id: number.id, body: { kind, note: note.trim() || undefined } },
      {
        onSuccess: (answer) => {
          setOpen(false);
          if ('refunded' in answer) {
            toast.success(answer.message);
            return;
          }
          toast.success(answer.message, {
            action: {
              label: t('report.openTicket'),
              onClick: () => navigate(ticketPath(answer.ticket_id)),
            },
          });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'already_reported') {
            const ticketId = error.body.ticket_id;
            setOpen(false);
            toast.info(error.message);
            if (typeof ticketId === 'number') navigate(ticketPath(ticketId));
            return;
          }
          toast.error(errorMessage(error));
        },
      },
    );
  }

  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => {
          setNote('');
          setKind(null);
          setKindMissing(false);
          setOpen(true);
        }}
        aria-label={t('report.label', { id: number.id })}
      >
        <Flag aria-hidden="true" />
        {!compact && t('report.action')}
      </Button>
      <Dialog open={open} onOpenChange={(next) => !report.isPending && setOpen(next)}>
        <DialogContent>
          <form onSubmit={onSubmit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{t('report.title', { id: number.id })}</DialogTitle>
              <DialogDescription>{t('report.description')}</DialogDescription>
            </DialogHeader>
            <fieldset
              className="grid gap-2"
              aria-invalid={kindMissing || undefined}
              aria-describedby={kindMissing ? kindErrorId : undefined}
            >
              <legend className="mb-2 text-sm font-medium">{t('report.kind')}</legend>
              {problemKinds.map((value) => (
                <label
                  key={value}
                  className={cn(
                    'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 text-sm transition-colors hover:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                    kind === value && 'border-primary bg-secondary',
                  )}
                >
                  <input
                    type="radio"
                    name="problem-kind"
                    value={value}
                    checked={kind === value}
                    onChange={() => {
                      setKind(value);
                      setKindMissing(false);
                    }}
                    className="mt-0.5 size-4 shrink-0 accent-primary"
                  />
                  {t(`report.kinds.${value}`)}
                </label>
              ))}
              {refundsNow && (
                <p className="text-sm text-muted-foreground" aria-live="polite">
                  {t('report.usedRefundsNow')}
                  {refundWaits && (
                    <>
                      {' '}
                      <span className="tabular-nums">
                        {t('report.usedRefundOpensIn', { time: formatMinutesSeconds(cancelOpensIn) })}
                      </span>
                    </>
                  )}
                </p>
              )}
              {kindMissing && (
                <p id={kindErrorId} role="alert" className="text-sm font-medium text-destructive">
                  {t('report.kindMissing')}
                </p>
              )}
            </fieldset>
            <Field id={noteId} label={t('report.note')}>
              <Textarea
                id={noteId}
                value={note}
                maxLength={PROBLEM_NOTE_MAX_LENGTH}
                placeholder={t('report.notePlaceholder')}
                onChange={(event) => setNote(event.target.value)}
              />
            </Field>
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline" disabled={report.isPending}>
                  {t('report.cancel')}
                </Button>
              </DialogClose>
              <Button type="submit" busy={report.isPending} disabled={refundWaits}>
                {refundsNow ? t('report.submitRefund') : t('report.submit')}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
