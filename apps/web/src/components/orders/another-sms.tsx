import { buyingMessages, type PurchasedNumber } from '@simcode/contract';
import { Loader2, MessageSquarePlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useRequestAnotherSms } from './api';

/** Another SMS can be asked for once a code arrived, while the number's time lasts. */
function canAskAnotherSms(number: PurchasedNumber, secondsLeft: number): boolean {
  return number.status === 'received' && secondsLeft > 0;
}

/**
 * "Get another SMS" on a number that received its code (protocol status 3, free): the number waits for
 * the next code, which replaces the one shown while every SMS stays in the history. While waiting, the
 * button gives way to a waiting note.
 */
export function AnotherSms({ number, secondsLeft }: { number: PurchasedNumber; secondsLeft: number }) {
  const { t } = useTranslation('numbers');
  const ask = useRequestAnotherSms();
  if (!canAskAnotherSms(number, secondsLeft)) return null;
  if (number.awaiting_another_sms) {
    return (
      <span
        className="inline-flex items-center gap-1.5 text-sm font-medium text-amber-800"
        data-testid="awaiting-another-sms"
      >
        <Loader2 className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
        {t('anotherSms.waiting')}
      </span>
    );
  }
  return (
    <Button
      variant="outline"
      size="sm"
      busy={ask.isPending}
      onClick={() =>
        ask.mutate(number.id, {
          onSuccess: () => toast.success(buyingMessages.anotherSmsRequested),
          onError: (error) => toast.error(errorMessage(error)),
        })
      }
      aria-label={t('anotherSms.label', { id: number.id })}
    >
      {!ask.isPending && <MessageSquarePlus aria-hidden="true" />}
      {t('anotherSms.action')}
    </Button>
  );
}
