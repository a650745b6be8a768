import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabase, testDatabaseUrl } from '../../test/support/database';
import { createUserEventBus, type UserEvent, type UserEventBus } from './user-events';

const log = pino({ level: 'silent' });
const buses: UserEventBus[] = [];
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
});

/** Waits, bounded, for a condition that another connection's work makes true. */
async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error(`never happened: ${what}`);
}

describe.skipIf(!testDatabaseUrl)('the LISTEN connection on PostgreSQL', () => {
  it('comes back after PostgreSQL drops it, says so, resynchronises, and hears the next event', async () => {
    const database = await testDatabase();
    const sender = await createUserEventBus(database, log);
    const receiver = await createUserEventBus(database, log);
    buses.push(sender, receiver);
    const received: UserEvent[] = [];
    receiver.subscribe(7, (event) => received.push(event));
    let resyncs = 0;
    receiver.onResync(() => {
      resyncs += 1;
    });
    expect(receiver.listenerState()).toBe('up');

    const states: string[] = [];
    const watching = setInterval(() => states.push(receiver.listenerState() ?? 'none'), 5);
    // What a PostgreSQL restart or an administrator does to every listener of this database.
    const terminated = await database.pool!.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'simcode-listen'`,
    );
    expect(terminated.rowCount).toBe(2);
    await until(() => resyncs === 1 && receiver.listenerState() === 'up', 'the listener reconnected');
    clearInterval(watching);
    expect(states).toContain('down');

    sender.publish({ userId: 7, type: 'balance' });
    await until(() => received.length > 0, 'the event crossed to the other bus');
    expect(received).toEqual([{ userId: 7, type: 'balance' }]);
  });
});
