import { apiPaths, LIST_LIMIT_MAX, type NumbersResponse } from '@simcode/contract';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { i18n } from '@/i18n';
import { apiRequest } from '@/lib/api-client';
import { RESYNC, subscribeToLiveEvents } from '@/lib/event-stream';
import { type Arrival, createArrivalTracker } from './arrivals';
import { playChime, unlockAudioOnInteraction } from './chime';
import { alertSettings } from './settings';
import { clearTitleCode, showCodeInTitle } from './tab-title';

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
 * are: a chime, the code in the tab title and, if they turned it on, a browser notification. An event that
 * names the number and its code is announced as it comes; one that only says the numbers changed is
 * followed by a look at the live numbers, compared with the last look.
 */
export default function CodeAlerts() {
  useEffect(() => {
    const controller = new AbortController();
    const stopUnlock = unlockAudioOnInteraction();
    const tracker = createArrivalTracker();
    // One step at a time, in order, so that a look and a pushed code never announce the same SMS twice.
    let steps = Promise.resolve();
    const then = (step: () => Promise<void> | void) => {
      steps = steps.then(step).catch(() => {
        // Network trouble: the next event looks again.
      });
    };
    const look = async () => {
      // Every number that can still receive an SMS: more than anyone holds at once.
      const { numbers } = await apiRequest<NumbersResponse>(apiPaths.numbers.list, {
        query: { state: 'live', limit: LIST_LIMIT_MAX },
        signal: controller.signal,
      });
      for (const arrival of tracker.look(numbers)) announce(arrival);
    };
    then(look);
    const unsubscribe = subscribeToLiveEvents((event) => {
      if (event.type === 'numbers' && event.data.order_id !== undefined && event.data.code) {
        const { order_id, code } = event.data;
        then(() => {
          const arrival = tracker.pushed(order_id, code);
          return arrival ? announce(arrival) : look();
        });
      } else if (event.type === 'numbers' || event.type === RESYNC) {
        then(look);
      }
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
