import { useSyncExternalStore } from 'react';

/** How the user wants to hear of a code: kept in this browser, as the device decides what suits it. */
interface AlertSettings {
  /** A short chime; on unless muted. */
  sound: boolean;
  /** A browser notification; off until the user turns it on (and the browser allows it). */
  notifications: boolean;
}

const STORAGE_KEY = 'simcode_alerts';
const DEFAULTS: AlertSettings = { sound: true, notifications: false };
const listeners = new Set<() => void>();
let cached: { raw: string | null; settings: AlertSettings } | null = null;

function readRaw(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function alertSettings(): AlertSettings {
  const raw = readRaw();
  if (cached?.raw !== raw) {
    let stored: Partial<AlertSettings> = {};
    try {
      stored = raw ? (JSON.parse(raw) as Partial<AlertSettings>) : {};
    } catch {
      // A damaged value counts as none.
    }
    cached = {
      raw,
      settings: {
        sound: typeof stored.sound === 'boolean' ? stored.sound : DEFAULTS.sound,
        notifications:
          typeof stored.notifications === 'boolean' ? stored.notifications : DEFAULTS.notifications,
      },
    };
  }
  return cached.settings;
}

export function updateAlertSettings(change: Partial<AlertSettings>): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...alertSettings(), ...change }));
  } catch {
    // Storage refused (private mode): the setting holds for this page only.
    cached = { raw: null, settings: { ...alertSettings(), ...change } };
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // A change in another tab of the app applies here too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function useAlertSettings(): AlertSettings {
  return useSyncExternalStore(subscribe, alertSettings, () => DEFAULTS);
}
