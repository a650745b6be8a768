import type { TopupStatus } from '@simcode/contract';
import { Ban, CheckCircle2, Clock, type LucideIcon, TimerOff, TriangleAlert } from 'lucide-react';
import type { BadgeVariant } from '@/components/ui/badge';

interface StatusLook {
  label: string;
  detail: string;
  badge: BadgeVariant;
  icon: LucideIcon;
  /** Classes of the round icon beside a top-up. */
  iconTone: string;
}

const WAITING_TONE = 'bg-warning-soft text-yellow-700';
const GOOD_TONE = 'bg-success-soft text-green-700';
const BAD_TONE = 'bg-red-50 text-red-700';
const QUIET_TONE = 'bg-muted text-slate-500';

/** How each top-up status reads to the payer. */
export const STATUS_LABELS: Record<TopupStatus, StatusLook> = {
  PENDING: {
    label: 'Pending',
    detail: 'Waiting for the payment.',
    badge: 'warning',
    icon: Clock,
    iconTone: WAITING_TONE,
  },
  COMPLETED: {
    label: 'Credited',
    detail: 'Added to your balance.',
    badge: 'success',
    icon: CheckCircle2,
    iconTone: GOOD_TONE,
  },
  UNDERPAID: {
    label: 'Underpaid',
    detail:
      'Less than the invoice amount arrived, so nothing was credited automatically. Contact support and we will sort it out.',
    badge: 'destructive',
    icon: TriangleAlert,
    iconTone: BAD_TONE,
  },
  CANCELED: {
    label: 'Canceled',
    detail: 'The invoice was canceled before it was paid. Nothing was charged.',
    badge: 'muted',
    icon: Ban,
    iconTone: QUIET_TONE,
  },
  FAILED: {
    label: 'Failed',
    detail: 'The payment provider reported an error. Nothing was credited; please try again.',
    badge: 'destructive',
    icon: TriangleAlert,
    iconTone: BAD_TONE,
  },
  EXPIRED: {
    label: 'Expired',
    detail: 'The invoice expired before it was paid. Nothing was charged.',
    badge: 'muted',
    icon: TimerOff,
    iconTone: QUIET_TONE,
  },
};

/** Finer detail of a pending top-up, from what the payment provider said last. */
const PENDING_DETAIL: Record<string, string> = {
  check: 'Waiting for the payment.',
  confirm_check: 'Payment seen, waiting for blockchain confirmations.',
  process: 'The payment is being processed.',
  wrong_amount_waiting: 'Part of the amount arrived: waiting for the rest.',
  locked: 'The payment is on hold at the payment provider.',
};

export function pendingDetail(providerStatus: string | null): string {
  return (providerStatus && PENDING_DETAIL[providerStatus]) || STATUS_LABELS.PENDING.detail;
}
