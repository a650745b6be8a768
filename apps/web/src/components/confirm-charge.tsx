import { type ReactNode, useCallback, useRef, useState } from 'react';
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

interface ChargeQuestion {
  title: string;
  /** What happens, in a sentence or two. */
  description: ReactNode;
  /** The price as shown ('$0.50'): said in the dialog and on its confirm button; none when no money moves. */
  price?: string;
  /** The confirm button's verb: 'Buy', 'Rent', 'Replace'. The price follows it when it charges. */
  action: string;
  /** The price comes back rather than being charged (a cancel): said so, and the button is the verb alone. */
  refund?: boolean;
}

/**
 * Every action that charges the balance asks first, with the price, and so does one that ends something
 * paid for (with what comes back): `await confirm(question)` is true when the user confirmed. Render
 * `dialog` once in the component that asks.
 */
export function useConfirmCharge(): {
  dialog: ReactNode;
  confirm(question: ChargeQuestion): Promise<boolean>;
} {
  const { t } = useTranslation('common');
  const [question, setQuestion] = useState<ChargeQuestion | null>(null);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    answer.current?.(confirmed);
    answer.current = null;
    setQuestion(null);
  }, []);

  const confirm = useCallback((next: ChargeQuestion) => {
    answer.current?.(false);
    setQuestion(next);
    return new Promise<boolean>((resolve) => {
      answer.current = resolve;
    });
  }, []);

  const dialog = (
    <AlertDialog open={question !== null} onOpenChange={(open) => !open && settle(false)}>
      <AlertDialogContent>
        {question && (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle>{question.title}</AlertDialogTitle>
              <AlertDialogDescription>{question.description}</AlertDialogDescription>
            </AlertDialogHeader>
            {question.price !== undefined && (
              <p className="flex items-baseline justify-between rounded-lg bg-muted px-3 py-2.5 text-sm">
                <span className="font-medium text-muted-foreground">
                  {t(question.refund ? 'charge.refunded' : 'charge.charged')}
                </span>
                <span className="text-xl font-bold tabular-nums" data-testid="charge-price">
                  {question.price}
                </span>
              </p>
            )}
            <AlertDialogFooter>
              <AlertDialogCancel asChild>
                <Button variant="outline">{t('charge.notNow')}</Button>
              </AlertDialogCancel>
              <Button onClick={() => settle(true)}>
                {question.refund || question.price === undefined
                  ? question.action
                  : t('charge.confirm', { action: question.action, price: question.price })}
              </Button>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
  return { dialog, confirm };
}
