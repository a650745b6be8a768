import type { NumbersResponse } from '@simcode/contract';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { i18n } from '@/i18n';
import { apiRequest } from '@/lib/api-client';
import { RESYNC, subscribeToLiveEvents } from '@/lib/event-stream';
import { type Arrival, arrivalsSince, type SmsCounts, smsCounts } from './arrivals';
import { playChime, unlockAudioOnInteraction } from './chime';
import { alertSettings } from './settings';
import { clearTitleCode, showCodeInTitle } from './tab-title';

/** Every number that can still receive an SMS: more than anyone holds at once. */
const LIVE_NUMBERS_PATH = '/api/dashboard/numbers?state=live&limit=100';

function notify(arrival: Arrival, code: string) {
  if (typeof Notification !== 'function' || Notification.permission !== 'granted') return;
  try {
    new Notification(i18n.t('alerts:notification.title', { service: arrival.serviceName, code }), {
      body: arrival.phone ? i18n.t('alerts:notification.body', { number: arrival.phone }) : undefined,
      // One notification per number: a later code replaces the earlier one.
      tag: `simcode-number-${arrival.numberId}`,
    });
  } catch {
    // Some mobile browsers only notify through a service worker: the title and the sound remain.
  }
}

function announce(arrival: Arrival) {
  const code = arrival.code ?? i18n.t('alerts:newSms');
  const settings = alertSettings();
  showCodeInTitle(i18n.t('alerts:titlePrefix', { code }));
  if (settings.sound) playChime();
  if (settings.notifications) notify(arrival, code);
  toast.success(i18n.t('alerts:toast', { service: arrival.serviceName, code }));
}

/**
 * Tells the signed-in user when a code arrives on one of their numbers, on whichever page of the app they
 * are: a chime, the code in the tab title and, if they turned it on, a browser notification. The event
 * stream says the numbers changed; comparing each number's SMS with the last look tells which got one.
 */
export default function CodeAlerts() {
  useEffect(() => {
    const controller = new AbortController();
    const stopUnlock = unlockAudioOnInteraction();
    let seen: SmsCounts | null = null;
    // One look at a time, in order, so that two events in a row never announce the same SMS twice.
    let looking = Promise.resolve();
    const look = () => {
      looking = looking.then(async () => {
        try {
          const { numbers } = await apiRequest<NumbersResponse>(LIVE_NUMBERS_PATH, {
            signal: controller.signal,
          });
          const arrivals = arrivalsSince(seen, numbers);
          seen = smsCounts(numbers);
          for (const arrival of arrivals) announce(arrival);
        } catch {
          // The next event looks again.
        }
      });
    };
    look();
    const unsubscribe = subscribeToLiveEvents((event) => {
      if (event === 'numbers' || event === RESYNC) look();
    });
    return () => {
      controller.abort();
      unsubscribe();
      stopUnlock();
      clearTitleCode();
    };
  }, []);
  return null;
}
