import { adminMessages } from '@simcode/contract';
import type { LucideIcon } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button, type ButtonProps } from '@/components/ui/button';
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
import { errorMessage } from '@/lib/api-client';

/** The shortest reason the server takes (the contract's `reasonField`). */
const REASON_MIN = 3;
const REASON_MAX = 500;

interface ActionDialogProps {
  /** The button that opens the dialog. */
  label: string;
  /** Another control in its place (a switch): given the function that opens the dialog. */
  trigger?(open: () => void): ReactNode;
  icon?: LucideIcon;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  disabled?: boolean;
  /** The dialog's question ('Block alice?'). */
  title: string;
  /** What will happen, in a sentence or two. */
  description: ReactNode;
  /** The confirm button ('Block'). */
  confirmLabel: string;
  destructive?: boolean;
  /** Whether the action takes a reason for the audit log (all but the ones the server records itself). */
  reason?: boolean;
  reasonLabel?: string;
  /** The reason the dialog opens with (a refund from a support ticket names the ticket). */
  defaultReason?: string;
  /** More fields (an amount, a checkbox), above the reason. */
  children?: ReactNode;
  /** Called each time the dialog opens: reset the extra fields, draw a new idempotency key. */
  onOpen?(): void;
  /** A problem with the extra fields, checked before sending; null when they are fine. */
  validate?(): string | null;
  /** Sends the action; the answer's `message` is shown as a toast. */
  run(reason: string): Promise<{ message: string }>;
  onDone?(): void;
}

/**
 * Every console action goes through this dialog: it says what will happen, asks for the reason that goes
 * into the audit log, and stays open, busy, until the server answers. The server's message is the toast;
 * its error text stays in the dialog so the administrator can correct and send again.
 */
export function ActionDialog({
  label,
  trigger,
  icon: Icon,
  variant = 'outline',
  size,
  disabled,
  title,
  description,
  confirmLabel,
  destructive,
  reason: withReason = true,
  reasonLabel,
  defaultReason = '',
  children,
  onOpen,
  validate,
  run,
  onDone,
}: ActionDialogProps) {
  const { t } = useTranslation('admin');
  const reasonId = useId();
  const errorId = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function openDialog(next: boolean) {
    if (pending) return;
    if (next) {
      setReason(defaultReason);
      setReasonError(null);
      setFailure(null);
      onOpen?.();
    }
    setOpen(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const problem = validate?.() ?? null;
    const reasonProblem =
      withReason && reason.trim().length < REASON_MIN ? adminMessages.reasonRequired : null;
    setReasonError(reasonProblem);
    setFailure(problem);
    if (problem || reasonProblem) return;
    setPending(true);
    try {
      const answer = await run(reason.trim());
      toast.success(answer.message);
      setOpen(false);
      onDone?.();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      {trigger ? (
        trigger(() => openDialog(true))
      ) : (
        <Button variant={variant} size={size} disabled={disabled} onClick={() => openDialog(true)}>
          {Icon && <Icon aria-hidden="true" />}
          {label}
        </Button>
      )}
      <Dialog open={open} onOpenChange={openDialog}>
        <DialogContent>
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>{title}</DialogTitle>
              <DialogDescription>{description}</DialogDescription>
            </DialogHeader>
            {children}
            {withReason && (
              <Field
                id={reasonId}
                label={reasonLabel ?? t('actionDialog.reason')}
                below={
                  reasonError && (
                    <p id={errorId} className="text-sm text-destructive">
                      {reasonError}
                    </p>
                  )
                }
              >
                <Textarea
                  id={reasonId}
                  value={reason}
                  maxLength={REASON_MAX}
                  required
                  aria-invalid={reasonError ? true : undefined}
                  aria-describedby={reasonError ? errorId : undefined}
                  onChange={(event) => setReason(event.target.value)}
                />
              </Field>
            )}
            {failure && (
              <Alert variant="destructive">
                <AlertDescription>{failure}</AlertDescription>
              </Alert>
            )}
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline" disabled={pending}>
                  {t('actionDialog.cancel')}
                </Button>
              </DialogClose>
              <Button type="submit" variant={destructive ? 'destructive' : 'default'} busy={pending}>
                {confirmLabel}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
