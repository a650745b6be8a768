import { Minus, Plus } from 'lucide-react';
import { type ReactNode, useCallback, useId, useRef, useState } from 'react';
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

/** Several of one thing bought at once, each its own order: the dialog asks how many and shows the total. */
interface QuantityChoice {
  max: number;
  /** The total price of `quantity`, as shown ('$1.50'). */
  total(quantity: number): string;
}

/**
 * Every action that charges the balance asks first, with the price, and so does one that ends something
 * paid for (with what comes back): `await confirm(question)` is true when the user confirmed. Render
 * `dialog` once in the component that asks.
 */
export function useConfirmCharge(): {
  dialog: ReactNode;
  confirm(question: ChargeQuestion): Promise<boolean>;
  /** Like `confirm`, with a choice of how many: the number confirmed, 0 when declined. */
  confirmHowMany(question: ChargeQuestion, choice: QuantityChoice): Promise<number>;
} {
  const { t } = useTranslation('common');
  const quantityId = useId();
  const [asked, setAsked] = useState<{ question: ChargeQuestion; choice?: QuantityChoice } | null>(null);
  const [quantity, setQuantity] = useState(1);
  const answer = useRef<((quantity: number) => void) | null>(null);

  const settle = useCallback((confirmedQuantity: number) => {
    answer.current?.(confirmedQuantity);
    answer.current = null;
    setAsked(null);
  }, []);

  const ask = useCallback((question: ChargeQuestion, choice?: QuantityChoice) => {
    answer.current?.(0);
    setQuantity(1);
    setAsked({ question, choice });
    return new Promise<number>((resolve) => {
      answer.current = resolve;
    });
  }, []);
  const confirm = useCallback(async (question: ChargeQuestion) => (await ask(question)) > 0, [ask]);

  const question = asked?.question;
  const choice = asked?.choice;
  const price = choice ? choice.total(quantity) : question?.price;
  const setWithin = (next: number) =>
    setQuantity(Math.min(Math.max(1, Math.trunc(next) || 1), choice?.max ?? 1));
  const dialog = (
    <AlertDialog open={asked !== null} onOpenChange={(open) => !open && settle(0)}>
      <AlertDialogContent>
        {question && (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle>{question.title}</AlertDialogTitle>
              <AlertDialogDescription>{question.description}</AlertDialogDescription>
            </AlertDialogHeader>
            {choice && (
              <div className="flex items-center justify-between gap-3 text-sm">
                <label htmlFor={quantityId} className="font-medium">
                  {t('charge.quantity')}
                </label>
                <span className="flex items-center gap-1">
                  <Button
                    variant="outline"
                    size="icon"
                    className="size-9"
                    aria-label={t('charge.fewer')}
                    disabled={quantity <= 1}
                    onClick={() => setWithin(quantity - 1)}
                  >
                    <Minus aria-hidden="true" />
                  </Button>
                  <input
                    id={quantityId}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={choice.max}
                    value={quantity}
                    onChange={(event) => setWithin(Number(event.target.value))}
                    className="h-9 w-14 rounded-md border bg-background text-center tabular-nums"
                    data-testid="charge-quantity"
                  />
                  <Button
                    variant="outline"
                    size="icon"
                    className="size-9"
                    aria-label={t('charge.more')}
                    disabled={quantity >= choice.max}
                    onClick={() => setWithin(quantity + 1)}
                  >
                    <Plus aria-hidden="true" />
                  </Button>
                </span>
              </div>
            )}
            {price !== undefined && (
              <p className="flex items-baseline justify-between rounded-lg bg-muted px-3 py-2.5 text-sm">
                <span className="font-medium text-muted-foreground">
                  {t(question.refund ? 'charge.refunded' : 'charge.charged')}
                </span>
                <span className="text-xl font-bold tabular-nums" data-testid="charge-price">
                  {price}
                </span>
              </p>
            )}
            <AlertDialogFooter>
              <AlertDialogCancel asChild>
                <Button variant="outline">{t('charge.notNow')}</Button>
              </AlertDialogCancel>
              <Button onClick={() => settle(quantity)}>
                {question.refund || price === undefined
                  ? question.action
                  : t('charge.confirm', { action: question.action, price })}
              </Button>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
  return { dialog, confirm, confirmHowMany: ask };
}
