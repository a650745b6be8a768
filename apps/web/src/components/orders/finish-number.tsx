import { numberMessages, type PurchasedNumber } from '@simcode/contract';
import { CircleCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useFinishNumber } from './api';

/**
 * "Finish" on a number whose code arrived: the buyer is done with it, so it is freed at the supplier (5sim
 * and the SMS-Activate family count live numbers against a limit) and leaves the live list; its code stays
 * in the history. Not while another SMS is awaited.
 */
export function FinishNumber({ number }: { number: PurchasedNumber }) {
  const { t } = useTranslation('numbers');
  const finish = useFinishNumber();
  if (number.status !== 'received' || number.awaiting_another_sms) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      busy={finish.isPending}
      onClick={() =>
        finish.mutate(number.id, {
          onSuccess: () => toast.success(numberMessages.finished),
          onError: (error) => toast.error(errorMessage(error, numberMessages.finishFailed)),
        })
      }
      aria-label={t('finish.label', { id: number.id })}
    >
      {!finish.isPending && <CircleCheck aria-hidden="true" />}
      {t('finish.action')}
    </Button>
  );
}
