import { describe, expect, it } from 'vitest';
import type { UserEvent, UserEventBus } from '../db/user-events';
import { ManualClock } from './clock';
import { UserCache } from './user-cache';

function fakeBus() {
  const listeners: Array<(event: UserEvent) => void> = [];
  const resyncs: Array<() => void> = [];
  const bus: UserEventBus & { resync(): void } = {
    publish: (event) => {
      for (const listener of listeners) listener(event);
    },
    subscribe: () => () => {},
    subscribeAll: (listener) => {
      listeners.push(listener);
      return () => {};
    },
    onResync: (listener) => {
      resyncs.push(listener);
      return () => {};
    },
    resync: () => {
      for (const listener of resyncs) listener();
    },
    listenerState: () => undefined,
    close: async () => {},
  };
  return bus;
}

describe('UserCache', () => {
  it('serves a value until its user changes, its time is up or room runs out', async () => {
    const clock = new ManualClock(0);
    const events = fakeBus();
    const cache = new UserCache<string>({
      clock,
      ttlMs: 1000,
      maxEntries: 3,
      events,
      invalidatedBy: (event) => event.type === 'numbers',
    });
    let loads = 0;
    const load = async () => `value-${++loads}`;
    expect(await cache.getOrLoad(1, 'a', load)).toBe('value-1');
    expect(await cache.getOrLoad(1, 'a', load)).toBe('value-1');
    events.publish({ userId: 2, type: 'numbers' });
    expect(await cache.getOrLoad(1, 'a', load)).toBe('value-1');
    events.publish({ userId: 1, type: 'balance' });
    expect(await cache.getOrLoad(1, 'a', load)).toBe('value-1');
    events.publish({ userId: 1, type: 'numbers' });
    expect(await cache.getOrLoad(1, 'a', load)).toBe('value-2');
    clock.advance(1000);
    expect(await cache.getOrLoad(1, 'a', load)).toBe('value-3');
    cache.set(2, 'x', 'x');
    cache.set(3, 'y', 'y');
    cache.set(4, 'z', 'z');
    expect(cache.get(1, 'a')).toBeUndefined();
    expect(cache.get(4, 'z')).toBe('z');
  });

  it('does not keep a value loaded while its user changed, since the load may have read before the change', async () => {
    const events = fakeBus();
    const cache = new UserCache<string>({
      clock: new ManualClock(0),
      ttlMs: 60_000,
      maxEntries: 10,
      events,
      invalidatedBy: (event) => event.type === 'numbers',
    });
    let release!: () => void;
    const slowLoad = cache.getOrLoad(
      1,
      'a',
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve('before');
        }),
    );
    events.publish({ userId: 1, type: 'numbers' });
    release();
    expect(await slowLoad).toBe('before');
    expect(cache.get(1, 'a')).toBeUndefined();
    expect(await cache.getOrLoad(1, 'a', async () => 'after')).toBe('after');
    expect(cache.get(1, 'a')).toBe('after');
  });
});
