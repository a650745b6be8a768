import type { TopupStatus } from '@simcode/contract';
import { Ban, CheckCircle2, Clock, type LucideIcon, TimerOff, TriangleAlert } from 'lucide-react';
import type { BadgeVariant } from '@/components/ui/badge';
import { i18n } from '@/i18n';

/** How a status looks; its words are `topup:status.<STATUS>.label` and `.detail`. */
interface StatusLook {
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
    badge: 'warning',
    icon: Clock,
    iconTone: WAITING_TONE,
  },
  COMPLETED: {
    badge: 'success',
    icon: CheckCircle2,
    iconTone: GOOD_TONE,
  },
  UNDERPAID: {
    badge: 'destructive',
    icon: TriangleAlert,
    iconTone: BAD_TONE,
  },
  CANCELED: {
    badge: 'muted',
    icon: Ban,
    iconTone: QUIET_TONE,
  },
  FAILED: {
    badge: 'destructive',
    icon: TriangleAlert,
    iconTone: BAD_TONE,
  },
  EXPIRED: {
    badge: 'muted',
    icon: TimerOff,
    iconTone: QUIET_TONE,
  },
};

export function statusLabel(status: TopupStatus): string {
  return i18n.t(`topup:status.${status}.label`);
}

export function statusDetail(status: TopupStatus): string {
  return i18n.t(`topup:status.${status}.detail`);
}

/** The provider statuses of a pending top-up with a finer detail (`topup:pending.<status>`). */
const PENDING_DETAILS = new Set(['check', 'confirm_check', 'process', 'wrong_amount_waiting', 'locked']);

/** Finer detail of a pending top-up, from what the payment provider said last. */
export function pendingDetail(providerStatus: string | null): string {
  return providerStatus && PENDING_DETAILS.has(providerStatus)
    ? i18n.t(`topup:pending.${providerStatus}`)
    : statusDetail('PENDING');
}
