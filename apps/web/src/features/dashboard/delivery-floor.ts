import type { DeliveryFigures } from '@simcode/contract';
import { useSyncExternalStore } from 'react';
import { browserStorage } from '@/lib/browser-storage';
import { deliveryRate } from './delivery';

/**
 * A buyer's minimum delivery rate on "By service" (issue 30): offers whose rate is known and below it are
 * hidden. Kept in this browser, as the code alerts are: it is how this buyer shops on this device, and
 * the reseller API takes its own `min_delivery_rate` per call.
 */
export const DELIVERY_FLOORS = [50, 70, 90] as const;
export type DeliveryFloor = (typeof DELIVERY_FLOORS)[number] | null;

const STORAGE_KEY = 'simcode_min_delivery_rate';
const listeners = new Set<() => void>();
/** The floor of this page when the browser refuses storage (private modes). */
let unsaved: DeliveryFloor | undefined;

export function deliveryFloor(): DeliveryFloor {
  if (unsaved !== undefined) return unsaved;
  const stored = Number(browserStorage()?.getItem(STORAGE_KEY));
  return DELIVERY_FLOORS.find((floor) => floor === stored) ?? null;
}

export function setDeliveryFloor(floor: DeliveryFloor): void {
  try {
    const storage = browserStorage();
    if (!storage) throw new Error('no storage');
    if (floor === null) storage.removeItem(STORAGE_KEY);
    else storage.setItem(STORAGE_KEY, String(floor));
    unsaved = undefined;
  } catch {
    unsaved = floor;
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

export function useDeliveryFloor(): DeliveryFloor {
  return useSyncExternalStore(subscribe, deliveryFloor, () => null);
}

/**
 * Whether an offer is shown under the floor. The rate compared is the whole percentage the row shows (and
 * the delivery index links to), so "70%" is never hidden by "at least 70%"; a "new" offer has no known rate and stays.
 */
export function clearsFloor(delivery: DeliveryFigures | undefined, floor: DeliveryFloor): boolean {
  const rate = deliveryRate(delivery);
  return floor === null || rate === null || rate >= floor;
}
