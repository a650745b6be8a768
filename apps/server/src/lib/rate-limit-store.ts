import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis as RedisClient } from 'ioredis';

type Count = (
  key: string,
  callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
  timeWindow: number,
  max: number,
) => void;
/** What the plugin's stores do: count (`incr`), peek (`read`), and make a route's own counter. */
interface Counter {
  incr: Count;
  read: Count;
  child(routeOptions: unknown): Counter;
}
type CounterCtor = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redisOrCache?: unknown,
  key?: string,
) => Counter;

// The plugin's own stores: the Lua script that counts in Redis and the LRU that counts in memory stay the
// plugin's, so the fallback counts exactly as each would alone.
const require = createRequire(import.meta.url);
const RedisCounter: CounterCtor = require('@fastify/rate-limit/store/RedisStore');
const LocalCounter: CounterCtor = require('@fastify/rate-limit/store/LocalStore');
/** Loaded only with REDIS_URL: a server counting in its own memory has no use for the client. */
const loadRedis = () => (require('ioredis') as typeof import('ioredis')).Redis;

/** A count in Redis that takes longer than this is given up and counted in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Reconnection attempts back off to this; counting stays in memory meanwhile. */
const REDIS_MAX_RECONNECT_DELAY_MS = 5000;

export type DependencyState = 'up' | 'down';

/**
 * The rate limiters' counters: in Redis when REDIS_URL is set (shared by every instance), in this process
 * otherwise — and also while Redis cannot be reached, so that an outage of a limiter's store never takes
 * sign-in, buying or top-ups down with it. Each instance then limits on its own until Redis is back.
 */
export interface RateLimitCounters {
  /** The store class for `@fastify/rate-limit`'s `store` option. */
  Store: FastifyRateLimitStoreCtor;
  /** `undefined` without REDIS_URL. */
  redisState(): DependencyState | undefined;
  close(): Promise<void>;
}

export function createRateLimitCounters(options: {
  redisUrl?: string;
  /** Keeps deployments sharing one Redis apart (REDIS_PREFIX). */
  keyPrefix: string;
  log: FastifyBaseLogger;
}): RateLimitCounters {
  const { redisUrl, keyPrefix, log } = options;
  if (!redisUrl) {
    return {
      Store: class {
        constructor(params: { continueExceeding: boolean; exponentialBackoff: boolean }) {
          // biome-ignore lint/correctness/noConstructorReturn: the plugin takes a class; the counter is the plugin's.
          return new LocalCounter(params.continueExceeding, params.exponentialBackoff);
        }
      } as unknown as FastifyRateLimitStoreCtor,
      redisState: () => undefined,
      close: async () => {},
    };
  }

  const Redis = loadRedis();
  const redis: RedisClient = new Redis(redisUrl, {
    // Without a connection a command fails at once instead of waiting in a queue: the request is counted
    // in memory and answered.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, REDIS_MAX_RECONNECT_DELAY_MS),
    // No client name, key or password reaches the logs through the client's own messages.
    showFriendlyErrorStack: false,
  });
  let down = false;
  const markDown = (error: unknown) => {
    if (down) return;
    down = true;
    // Once per outage, one structured line: the client's own errors are otherwise printed per retry.
    log.warn(
      { dependency: 'redis', err: error },
      'Redis is unreachable: rate limits are counted in this process until it is back',
    );
  };
  // A listener keeps ioredis from printing "Unhandled error event" lines on every reconnection attempt.
  redis.on('error', markDown);
  redis.on('close', () => markDown(new Error('connection closed')));
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ dependency: 'redis' }, 'Redis is back: rate limits are shared again');
  });

  class FallbackCounter implements Counter {
    constructor(
      private readonly shared: Counter,
      private readonly local: Counter,
    ) {}
    private pick(method: 'incr' | 'read', [key, callback, timeWindow, max]: Parameters<Count>) {
      const inMemory = () => this.local[method](key, callback, timeWindow, max);
      if (redis.status !== 'ready') return inMemory();
      this.shared[method](
        key,
        (error, result) => {
          if (!error) return callback(null, result);
          markDown(error);
          inMemory();
        },
        timeWindow,
        max,
      );
    }
    incr(...args: Parameters<Count>) {
      this.pick('incr', args);
    }
    read(...args: Parameters<Count>) {
      this.pick('read', args);
    }
    child(routeOptions: unknown) {
      return new FallbackCounter(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }

  return {
    Store: class {
      constructor(params: { continueExceeding: boolean; exponentialBackoff: boolean }) {
        // biome-ignore lint/correctness/noConstructorReturn: the plugin takes a class; the counter is composed.
        return new FallbackCounter(
          new RedisCounter(params.continueExceeding, params.exponentialBackoff, redis, keyPrefix),
          new LocalCounter(params.continueExceeding, params.exponentialBackoff),
        );
      }
    } as unknown as FastifyRateLimitStoreCtor,
    redisState: () => (redis.status === 'ready' ? 'up' : 'down'),
    async close() {
      redis.removeAllListeners('close');
      redis.disconnect();
    },
  };
}
