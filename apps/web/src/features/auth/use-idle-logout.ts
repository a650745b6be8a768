import { useEffect } from 'react';
import { endSession, isIdleExpired, markActivity } from '@/lib/session';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel'] as const;
const CHECK_EVERY_MS = 15_000;
/** Activity is recorded at most this often: mousemove fires far more than the idle rule needs. */
const RECORD_EVERY_MS = 5_000;

/**
 * Ends the session after 30 minutes without mouse, key or touch activity. Activity is kept in local storage,
 * so a user busy in one tab is not logged out by an idle one.
 */
export function useIdleLogout(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    if (isIdleExpired()) {
      endSession();
      return;
    }
    markActivity();
    let lastRecordedAt = Date.now();
    const onActivity = () => {
      const now = Date.now();
      if (now - lastRecordedAt >= RECORD_EVERY_MS) {
        lastRecordedAt = now;
        markActivity(now);
      }
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true });
    const timer = window.setInterval(() => {
      if (isIdleExpired()) endSession();
    }, CHECK_EVERY_MS);
    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity);
      window.clearInterval(timer);
    };
  }, [enabled]);
}
