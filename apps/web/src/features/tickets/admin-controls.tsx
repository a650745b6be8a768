import {
  isTicketStatus,
  type Ticket,
  type TicketStatus,
  ticketMessages,
  ticketStatuses,
} from '@simcode/contract';
import { Trash2, UserRound } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
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
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { useDeleteTicket, useSetTicketStatus, useTicketAuthor } from './api';

/** 'View User Info': the username and e-mail of the ticket's author. */
export function UserInfoDialog({ userId }: { userId: number }) {
  const { t } = useTranslation('tickets');
  const [open, setOpen] = useState(false);
  // The same cached query as the list's author line: opening the dialog asks the server nothing new.
  const author = useTicketAuthor(userId);
  const user = author.data?.user;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <UserRound aria-hidden="true" />
        {t('admin.viewUser')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-sm">
          <DialogHeader>
            <DialogTitle>{t('admin.userInfo')}</DialogTitle>
            <DialogDescription>{t('admin.userInfoDescription')}</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-3 rounded-lg border bg-slate-50 p-4 text-sm">
            <dt className="text-muted-foreground">{t('admin.username')}</dt>
            <dd className="min-w-0 font-medium break-words">
              {user ? user.username : <Skeleton className="h-4 w-24" />}
            </dd>
            <dt className="text-muted-foreground">{t('admin.email')}</dt>
            <dd className="min-w-0 font-medium break-all">
              {user ? user.email : <Skeleton className="h-4 w-40" />}
            </dd>
          </dl>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">{t('admin.close')}</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** Why support acts: required, written into the audit log with the change. */
function ReasonField({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation('tickets');
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {t('admin.reason')}
      </label>
      <Textarea id={id} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
      <p className="text-xs text-muted-foreground">{t('admin.reasonHint')}</p>
    </div>
  );
}

const REASON_MIN_LENGTH = 3;
const hasReason = (reason: string) => reason.trim().length >= REASON_MIN_LENGTH;

/** 'Delete Ticket', only after the spec's confirmation in a dialog, with a reason for the audit log. */
export function DeleteTicketButton({ ticketId, onDeleted }: { ticketId: number; onDeleted(): void }) {
  const { t } = useTranslation('tickets');
  const remove = useDeleteTicket();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:text-red-700 sm:ml-auto"
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden="true" />
        {t('admin.delete')}
      </Button>
      <AlertDialog open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('admin.deleteTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{ticketMessages.deleteConfirm}</AlertDialogDescription>
          </AlertDialogHeader>
          <ReasonField value={reason} onChange={setReason} />
          <AlertDialogFooter>
            <AlertDialogCancel asChild>
              <Button variant="outline" disabled={remove.isPending}>
                {t('admin.cancel')}
              </Button>
            </AlertDialogCancel>
            {/* Not an AlertDialogAction: the dialog stays open, busy, until the server has answered. */}
            <Button
              variant="destructive"
              busy={remove.isPending}
              disabled={!hasReason(reason)}
              onClick={() =>
                remove.mutate(
                  { ticketId, reason: reason.trim() },
                  {
                    onSuccess: () => {
                      setOpen(false);
                      onDeleted();
                    },
                  },
                )
              }
            >
              {t('admin.delete')}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** Administrators may set any of the three statuses, each change with a reason for the audit log. */
export function TicketStatusSelect({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('tickets');
  const setStatus = useSetTicketStatus();
  const [chosen, setChosen] = useState<TicketStatus | null>(null);
  const [reason, setReason] = useState('');
  return (
    <>
      <Select
        value={isTicketStatus(ticket.status) ? ticket.status : undefined}
        disabled={setStatus.isPending}
        onValueChange={(status) => {
          setReason('');
          setChosen(status as TicketStatus);
        }}
      >
        <SelectTrigger
          className="h-8 w-auto min-w-44 text-xs"
          aria-label={t('admin.ticketStatus')}
          aria-busy={setStatus.isPending || undefined}
        >
          <SelectValue placeholder={t('admin.setStatus')} />
        </SelectTrigger>
        <SelectContent>
          {ticketStatuses.map((status) => (
            <SelectItem key={status} value={status}>
              {t(`status.${status}`)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <AlertDialog
        open={chosen !== null}
        onOpenChange={(next) => !next && !setStatus.isPending && setChosen(null)}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>
              {chosen && t('admin.statusTitle', { status: t(`status.${chosen}`) })}
            </AlertDialogTitle>
            <AlertDialogDescription className="sr-only">{t('admin.reasonHint')}</AlertDialogDescription>
          </AlertDialogHeader>
          <ReasonField value={reason} onChange={setReason} />
          <AlertDialogFooter>
            <AlertDialogCancel asChild>
              <Button variant="outline" disabled={setStatus.isPending}>
                {t('admin.cancel')}
              </Button>
            </AlertDialogCancel>
            <Button
              busy={setStatus.isPending}
              disabled={!hasReason(reason)}
              onClick={() =>
                chosen &&
                setStatus.mutate(
                  { ticketId: ticket.id, status: chosen, reason: reason.trim() },
                  { onSuccess: () => setChosen(null) },
                )
              }
            >
              {t('admin.apply')}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
