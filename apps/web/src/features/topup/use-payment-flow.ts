import {
  PAYMENT_SUCCESS_REDIRECT_MS,
  TOPUP_STATUS_POLL_MS,
  type TopupStatus,
  topupMessages,
} from '@simcode/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { topupStatusQuery, useCreateInvoice } from './api';
import { openPaymentPopup } from './payment-popup';

/** How often we look whether the payment window still shows (no event tells us). */
const POPUP_WATCH_MS = 500;

interface Payment {
  orderId: string;
  url: string;
  amountCents: number;
}

/**
 * idle       nothing under way
 * creating   the invoice is being created (the popup already shows "Preparing")
 * waiting    the payer is on the payment page; the status is polled every 4 s
 * away       this page cannot see the payment window any more: closed by the payer, or out of reach
 *            (a payment page that sends Cross-Origin-Opener-Policy makes an open window look closed),
 *            or this page is the one the checkout returned to. The status is still polled every 4 s
 *            until it is final or the user dismisses it, so the outcome never depends on the window.
 * blocked    the browser refused the popup: a link opens the payment page, the status is polled
 * completed  credited: toast, popup closed, the dashboard follows
 * ended      the invoice ended without a payment (expired, canceled, failed, underpaid)
 */
export type PaymentFlow =
  | { stage: 'idle' }
  | { stage: 'creating'; amountCents: number }
  | ({ stage: 'waiting' | 'away' | 'blocked' } & Payment)
  | ({ stage: 'completed' } & Payment)
  | ({ stage: 'ended'; status: Exclude<TopupStatus, 'PENDING' | 'COMPLETED'> } & Payment);

export function usePaymentFlow() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const createInvoice = useCreateInvoice();
  const [flow, setFlow] = useState<PaymentFlow>({ stage: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const popupRef = useRef<Window | null>(null);
  /** Whether this page is where the checkout sent the payer back (possibly inside the payment window). */
  const returnedRef = useRef(false);

  const tracking =
    flow.stage === 'waiting' || flow.stage === 'away' || flow.stage === 'blocked' ? flow : null;
  const status = useQuery({
    ...topupStatusQuery(tracking?.orderId ?? ''),
    enabled: tracking !== null,
    // Until the invoice is final or the user dismisses it: a window that looks closed may still be paying.
    refetchInterval: tracking ? TOPUP_STATUS_POLL_MS : false,
    refetchOnWindowFocus: 'always',
  });

  const refreshLists = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.topups.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.summary });
  }, [queryClient]);

  // The status decides: credited, ended, or still waiting.
  const currentStatus = tracking ? status.data?.status : undefined;
  useEffect(() => {
    if (!tracking || !currentStatus || currentStatus === 'PENDING') return;
    const { orderId, url, amountCents } = tracking;
    refreshLists();
    if (currentStatus === 'COMPLETED') {
      toast.success(topupMessages.completed);
      popupRef.current?.close();
      popupRef.current = null;
      setFlow({ stage: 'completed', orderId, url, amountCents });
      // This may be the payment window itself, back on the top-up page: it closes when a script opened
      // it (the browser ignores this for an ordinary tab, which goes to the dashboard instead).
      if (returnedRef.current) window.close();
    } else {
      setFlow({ stage: 'ended', status: currentStatus, orderId, url, amountCents });
    }
  }, [tracking, currentStatus, refreshLists]);

  // After a payment, the dashboard with the new balance.
  useEffect(() => {
    if (flow.stage !== 'completed') return;
    const timer = setTimeout(() => navigate('/dashboard'), PAYMENT_SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [flow.stage, navigate]);

  // The payment window gone from sight: the panel says so, and the polling goes on.
  const watchedOrderId = flow.stage === 'waiting' ? flow.orderId : null;
  useEffect(() => {
    if (!watchedOrderId) return;
    const timer = setInterval(() => {
      if (!popupRef.current?.closed) return;
      popupRef.current = null;
      setFlow((current) => (current.stage === 'waiting' ? { ...current, stage: 'away' } : current));
      // One last look: the payment may have gone through just before the window closed.
      void queryClient.invalidateQueries({ queryKey: queryKeys.topups.status(watchedOrderId) });
    }, POPUP_WATCH_MS);
    return () => clearInterval(timer);
  }, [watchedOrderId, queryClient]);

  /** Creates the invoice and opens its payment page; call it from the click on Deposit. */
  async function start(amountCents: number, provider?: string): Promise<void> {
    setError(null);
    const popup = openPaymentPopup();
    popupRef.current = popup;
    setFlow({ stage: 'creating', amountCents });
    try {
      const invoice = await createInvoice.mutateAsync({ amountCents, provider });
      const payment = { orderId: invoice.order_id, url: invoice.url, amountCents };
      if (popup && !popup.closed) {
        popup.location.href = invoice.url;
        setFlow({ stage: 'waiting', ...payment });
      } else {
        popupRef.current = null;
        setFlow({ stage: popup ? 'away' : 'blocked', ...payment });
      }
    } catch (failure) {
      popup?.close();
      popupRef.current = null;
      const message = errorMessage(failure, topupMessages.invoiceFailed);
      setError(message);
      toast.error(message);
      setFlow({ stage: 'idle' });
    }
  }

  /** Opens the payment page again (after the window went out of sight or was blocked). */
  function reopen(): void {
    if (!tracking) return;
    const popup = openPaymentPopup();
    if (!popup) {
      setFlow({ ...tracking, stage: 'blocked' });
      return;
    }
    popup.location.href = tracking.url;
    popupRef.current = popup;
    setFlow({ ...tracking, stage: 'waiting' });
  }

  /** Stops following the payment; it stays in the recent top-ups and is credited whenever it is paid. */
  function reset(): void {
    popupRef.current = null;
    setError(null);
    setFlow({ stage: 'idle' });
  }

  /** Follows the order the checkout returned the payer with (`?order=`), without opening any window. */
  const follow = useCallback((payment: Payment): void => {
    returnedRef.current = true;
    setFlow({ stage: 'away', ...payment });
  }, []);

  /** Resumes following a pending top-up from the list. */
  function resume(payment: Payment): void {
    const popup = openPaymentPopup();
    popupRef.current = popup;
    if (popup) popup.location.href = payment.url;
    setFlow({ stage: popup ? 'waiting' : 'blocked', ...payment });
  }

  return {
    flow,
    error,
    checking: status.isFetching,
    checkNow: () => status.refetch(),
    start,
    reopen,
    reset,
    resume,
    follow,
  };
}
