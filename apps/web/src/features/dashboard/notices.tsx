import { LOW_BALANCE_THRESHOLD_CENTS } from '@simcode/contract';
import { ArrowRight, CalendarClock, Info, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { publicConfig } from '@/lib/public-config';

export function SupportNotice() {
  return (
    <Alert variant="info">
      <Info aria-hidden="true" />
      <AlertTitle>Need help with a number?</AlertTitle>
      <AlertDescription>
        <p>
          Read the{' '}
          <Link to="/faq" className="font-medium underline underline-offset-2">
            FAQ
          </Link>{' '}
          for troubleshooting tips, or talk to us in the{' '}
          <a
            href={publicConfig().supportChatUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium underline underline-offset-2"
          >
            support chat
          </a>
          . Numbers without a code are refunded automatically after 20 minutes.
        </p>
      </AlertDescription>
    </Alert>
  );
}

/** Shown when the balance is below $1. */
export function LowBalanceBanner({ balance }: { balance: number }) {
  if (Math.round(balance * 100) >= LOW_BALANCE_THRESHOLD_CENTS) return null;
  return (
    <Alert variant="warning" className="items-center">
      <TriangleAlert aria-hidden="true" />
      <AlertTitle>Your balance is low</AlertTitle>
      <AlertDescription className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p>Top up to keep buying numbers without interruption.</p>
        <Button asChild size="sm" variant="default">
          <Link to="/dashboard/topup">Top Up Balance</Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}

export function LongTermPromo() {
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-indigo-200 bg-gradient-to-r from-indigo-600 to-violet-600 p-4 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between sm:p-5">
      <div className="flex items-start gap-3">
        <CalendarClock className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">Need a number for longer? Rent one.</p>
          <p className="text-sm text-indigo-100">
            Keep a number for hours, weeks or months and receive unlimited SMS.
          </p>
        </div>
      </div>
      <Button
        asChild
        variant="secondary"
        size="sm"
        className="shrink-0 bg-white text-indigo-700 hover:bg-indigo-50"
      >
        <Link to="/dashboard/longterm">
          Rent a long-term number
          <ArrowRight aria-hidden="true" />
        </Link>
      </Button>
    </div>
  );
}
