import { toast } from 'sonner';
import { i18n } from '@/i18n';
import { formatDollars } from './format';

/**
 * A purchase the balance cannot pay: the refusal's own text (the spec's), how much is missing, and a way
 * forward to the top-up page. Nothing is sent to the server.
 */
export function toastShortfall(
  refusal: string,
  { priceDollars, balanceDollars }: { priceDollars: number; balanceDollars: number },
  openTopUp: () => void,
): void {
  toast.error(refusal, {
    description: i18n.t('common:shortfall.needMore', {
      amount: formatDollars(Math.max(0, priceDollars - balanceDollars)),
    }),
    action: { label: i18n.t('common:shortfall.topUp'), onClick: openTopUp },
  });
}
