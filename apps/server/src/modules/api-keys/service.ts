import { createHash, randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import {
  API_KEYS_MAX_LIVE,
  type ApiKeyView,
  apiKeyMessages,
  type CreateApiKeyRequest,
  centsToDollars,
  createApiKeyRequestSchema,
  formatCents,
  type UpdateApiKeyRequest,
} from '@simcode/contract';
import type { Database, Executor } from '../../db/client';
import type { ApiKey } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import { AppError, fail, notFound } from '../../lib/errors';
import { resolvePublicAddress, UnsafeTargetError } from '../../lib/public-address';
import type { SecretBox } from '../../lib/secret-box';
import { createMailQueue } from '../mail/queue';
import type { KeySpend } from '../orders/hold';
import { createApiKeysRepository, type KeySettings } from './repository';

/** Keys look like `sc_` and 43 base64url characters (32 random bytes). */
const KEY_PREFIX = 'sc_';
/** How many characters of the key the owner sees afterwards. */
const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 8;
/** The last use is written at most this often per key, so the hot path stays a memory lookup. */
const LAST_USED_WRITE_MS = 60_000;
/** A key read from the database is trusted this long; revocation and edits drop it at once. */
const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_MAX = 20_000;
const DAY_MS = 86_400_000;
/** The same note of a key (a call from outside its allow-list, say) is written once in this window. */
export const NOTE_COALESCE_MS = 10 * 60_000;
const NOTES_REMEMBERED = 10_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A key as the request path needs it, with its allow-list compiled. */
export interface AuthenticatedKey {
  id: number;
  userId: number;
  record: ApiKey;
  allows(ip: string): boolean;
}

/**
 * A spend refused by one of the key's caps, or because the key paused itself: answered as NO_BALANCE by the
 * protocol and as a 403 by the JSON API, and written to the key's log.
 */
export class KeyCapError extends AppError {
  constructor(
    readonly apiKeyId: number,
    readonly detail: string,
  ) {
    super('key_limit_reached', detail);
    this.name = 'KeyCapError';
  }
}

function compileAllowList(entries: readonly string[]): (ip: string) => boolean {
  if (entries.length === 0) return () => true;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address!) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(prefix), family);
  }
  return (ip) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
    const address = mapped ?? ip;
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

function dollarsToCents(value: number | null | undefined): number | null | undefined {
  return value === null || value === undefined ? value : Math.round(value * 100);
}

interface ApiKeyServiceDeps {
  db: Database;
  clock: Clock;
  events: UserEventBus;
  /** Seals each key's webhook secret in the database. */
  secretBox: SecretBox;
  /** Lets callback URLs point at private addresses (tests, closed networks). */
  allowPrivateCallbacks: boolean;
}

export function createApiKeyService({
  db,
  clock,
  events,
  secretBox,
  allowPrivateCallbacks,
}: ApiKeyServiceDeps) {
  const repository = createApiKeysRepository(db);
  const byKey = new Map<string, { key: AuthenticatedKey | null; loadedAtMs: number; userId?: number }>();
  const lastWrittenAtMs = new Map<number, number>();
  const notedAtMs = new Map<string, number>();

  // Every instance drops a user's keys when one of them changes or the user row does (deletion).
  events.subscribeAll((event) => {
    if (event.type !== 'api-keys' && event.type !== 'account') return;
    for (const [raw, entry] of byKey) if (entry.userId === event.userId) byKey.delete(raw);
  });
  events.onResync(() => byKey.clear());

  function keyChanged(userId: number): void {
    for (const [raw, entry] of byKey) if (entry.userId === userId) byKey.delete(raw);
    events.publish({ userId, type: 'api-keys' });
  }

  /**
   * A URL SimCode will POST a customer's SMS to: HTTPS, and a host whose every address is public (unless the
   * operator allows private targets). Refused with `invalid_request` or `callback_refused`.
   */
  async function checkCallback(url: string | null | undefined): Promise<void> {
    if (!url) return;
    let host: string;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && !allowPrivateCallbacks)
        throw fail('invalid_request', apiKeyMessages.callbackNotHttps);
      host = parsed.hostname;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw fail('invalid_request', apiKeyMessages.callbackNotHttps);
    }
    try {
      await resolvePublicAddress(host, allowPrivateCallbacks);
    } catch (error) {
      if (error instanceof UnsafeTargetError)
        throw fail(
          'callback_refused',
          error.reason === 'private' ? apiKeyMessages.callbackPrivate : apiKeyMessages.callbackUnresolvable,
        );
      throw error;
    }
  }

  async function present(key: ApiKey): Promise<ApiKeyView> {
    const spent = await repository.spending(key.id, dayStart());
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      created_at: key.createdAt.toISOString(),
      last_used_at: key.lastUsedAt?.toISOString() ?? null,
      revoked_at: key.revokedAt?.toISOString() ?? null,
      allowed_ips: key.allowedIps,
      daily_cap: key.dailyCapCents === null ? null : centsToDollars(key.dailyCapCents),
      total_cap: key.totalCapCents === null ? null : centsToDollars(key.totalCapCents),
      max_active_orders: key.maxActiveOrders,
      scope: key.scope,
      max_price: key.maxPriceCents === null ? null : centsToDollars(key.maxPriceCents),
      min_delivery_rate: key.minDeliveryRate,
      stop_after_failures: key.stopAfterFailures,
      failures_in_a_row: key.failuresInARow,
      paused_at: key.pausedAt?.toISOString() ?? null,
      callback_url: key.callbackUrl,
      webhook_secret: secretBox.open(key.webhookSecret),
      spent_today: centsToDollars(spent.todayCents),
      spent_total: centsToDollars(spent.totalCents),
      active_orders: spent.activeOrders,
    };
  }

  function dayStart(): Date {
    const nowMs = clock.now().getTime();
    return new Date(nowMs - (nowMs % DAY_MS));
  }

  function settingsFrom(input: UpdateApiKeyRequest): KeySettings {
    const settings: KeySettings = {};
    if (input.name !== undefined) settings.name = input.name.trim();
    if (input.allowed_ips !== undefined) settings.allowedIps = input.allowed_ips;
    if (input.daily_cap !== undefined) settings.dailyCapCents = dollarsToCents(input.daily_cap);
    if (input.total_cap !== undefined) settings.totalCapCents = dollarsToCents(input.total_cap);
    if (input.max_active_orders !== undefined) settings.maxActiveOrders = input.max_active_orders;
    if (input.callback_url !== undefined) settings.callbackUrl = input.callback_url || null;
    if (input.scope !== undefined) settings.scope = input.scope;
    if (input.max_price !== undefined) settings.maxPriceCents = dollarsToCents(input.max_price);
    if (input.min_delivery_rate !== undefined) settings.minDeliveryRate = input.min_delivery_rate;
    if (input.stop_after_failures !== undefined) settings.stopAfterFailures = input.stop_after_failures;
    return settings;
  }

  return {
    repository,
    present,
    /** The address checks of a key's callback URL, for a URL given with one purchase (a rent's `url`). */
    checkCallbackUrl: checkCallback,

    /**
     * Creates a key and mails the owner about it (in the same transaction). The caller has checked the
     * owner's proof (the password, and the code with two-factor on): api-keys/routes.ts.
     */
    async create(userId: number, input: CreateApiKeyRequest): Promise<{ key: ApiKeyView; secret: string }> {
      const parsed = createApiKeyRequestSchema.parse(input);
      await checkCallback(parsed.callback_url);
      const secret = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const created = await db.transaction(async (tx) => {
        const inTransaction = createApiKeysRepository(tx);
        await inTransaction.lockUser(userId);
        if ((await inTransaction.countLive(userId)) >= API_KEYS_MAX_LIVE) throw fail('too_many_keys');
        const settings = settingsFrom(parsed);
        const now = clock.now();
        const key = await inTransaction.insert({
          userId,
          name: parsed.name,
          prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
          keyHash: hashApiKey(secret),
          allowedIps: settings.allowedIps ?? [],
          dailyCapCents: settings.dailyCapCents ?? null,
          totalCapCents: settings.totalCapCents ?? null,
          maxActiveOrders: settings.maxActiveOrders ?? null,
          callbackUrl: settings.callbackUrl ?? null,
          scope: settings.scope ?? 'full',
          maxPriceCents: settings.maxPriceCents ?? null,
          minDeliveryRate: settings.minDeliveryRate ?? null,
          stopAfterFailures: settings.stopAfterFailures ?? null,
          webhookSecret: secretBox.seal(`whsec_${randomBytes(24).toString('base64url')}`),
          createdAt: now,
        });
        // A key outlives every session: its owner hears of each new one, whoever made it.
        await createMailQueue(tx).enqueue({
          userId,
          template: 'api_key_created',
          payload: { name: key.name, prefix: key.prefix },
          now,
        });
        return key;
      });
      events.publish({ userId, type: 'api-keys' });
      return { key: await present(created), secret };
    },

    async list(userId: number): Promise<ApiKeyView[]> {
      return Promise.all((await repository.listForUser(userId)).map(present));
    },

    async update(userId: number, id: number, input: UpdateApiKeyRequest): Promise<ApiKeyView> {
      const found = await repository.findForUser(userId, id);
      if (!found) throw notFound(apiKeyMessages.notFound);
      if (found.revokedAt) throw fail('revoked');
      await checkCallback(input.callback_url);
      const updated = await repository.update(userId, id, settingsFrom(input));
      if (!updated) throw fail('revoked');
      keyChanged(userId);
      return present(updated);
    },

    /** Resumes a key that paused itself after failed orders: its streak starts over. */
    async resume(userId: number, id: number): Promise<ApiKeyView> {
      const found = await repository.findForUser(userId, id);
      if (!found) throw notFound(apiKeyMessages.notFound);
      const resumed = await repository.update(userId, id, { pausedAt: null, failuresInARow: 0 });
      if (!resumed) throw fail('revoked');
      keyChanged(userId);
      return present(resumed);
    },

    /** Takes effect at once here, and on other instances as soon as the event reaches them. */
    async revoke(userId: number, id: number): Promise<ApiKeyView> {
      const found = await repository.findForUser(userId, id);
      if (!found) throw notFound(apiKeyMessages.notFound);
      const revoked = await repository.revoke(userId, id, clock.now());
      if (!revoked) throw fail('revoked');
      keyChanged(userId);
      return present(revoked);
    },

    async log(userId: number, id: number) {
      const found = await repository.findForUser(userId, id);
      if (!found) throw notFound(apiKeyMessages.notFound);
      const [deliveries, keyEvents] = await Promise.all([repository.deliveries(id), repository.events(id)]);
      return { deliveries, events: keyEvents };
    },

    async sendTestDelivery(userId: number, id: number): Promise<void> {
      const found = await repository.findForUser(userId, id);
      if (!found) throw notFound(apiKeyMessages.notFound);
      if (found.revokedAt) throw fail('revoked');
      if (!found.callbackUrl) throw fail('no_callback');
      await repository.enqueueTestDelivery(id, clock.now());
    },

    /**
     * The live key a raw key string names, or null (unknown, revoked). A memory lookup for keys seen in the
     * last minute; the first use of a key, and any use after a change, reads the database by the key's hash.
     */
    async authenticate(rawKey: string): Promise<AuthenticatedKey | null> {
      const nowMs = clock.now().getTime();
      // Keyed by the key itself, as verified session tokens are: a polling bot costs a map lookup, no hash.
      const cached = byKey.get(rawKey);
      let key: AuthenticatedKey | null;
      if (cached && nowMs - cached.loadedAtMs < KEY_CACHE_TTL_MS) key = cached.key;
      else {
        const record = await repository.findByHash(hashApiKey(rawKey));
        const live = record && !record.revokedAt && !(await repository.ownerBlocked(record.userId));
        key =
          record && live
            ? { id: record.id, userId: record.userId, record, allows: compileAllowList(record.allowedIps) }
            : null;
        if (byKey.size >= KEY_CACHE_MAX) byKey.delete(byKey.keys().next().value!);
        byKey.set(rawKey, { key, loadedAtMs: nowMs, userId: record?.userId });
      }
      if (key && nowMs - (lastWrittenAtMs.get(key.id) ?? 0) >= LAST_USED_WRITE_MS) {
        lastWrittenAtMs.set(key.id, nowMs);
        await repository.touch(key.id, clock.now());
      }
      return key;
    },

    /**
     * The hook every spend through a key (a purchase, a rent, a renewal) runs in its money transaction: the
     * key's caps, under its lock.
     */
    spendThrough(key: AuthenticatedKey): KeySpend {
      return {
        apiKeyId: key.id,
        guards: { maxPriceCents: key.record.maxPriceCents, minDeliveryRate: key.record.minDeliveryRate },
        admit: async (tx: Executor, priceCents: number) => {
          const inTransaction = createApiKeysRepository(tx);
          await inTransaction.lockKey(key.id);
          const fresh = await inTransaction.findById(key.id);
          if (!fresh || fresh.revokedAt) throw new KeyCapError(key.id, apiKeyMessages.keyRevoked);
          if (fresh.pausedAt) throw new KeyCapError(key.id, apiKeyMessages.keyPaused(fresh.failuresInARow));
          const spent = await inTransaction.spending(key.id, dayStart());
          const price = formatCents(priceCents);
          if (fresh.dailyCapCents !== null && spent.todayCents + priceCents > fresh.dailyCapCents)
            throw new KeyCapError(
              key.id,
              apiKeyMessages.dailyCapReached(
                formatCents(fresh.dailyCapCents),
                formatCents(spent.todayCents),
                price,
              ),
            );
          if (fresh.totalCapCents !== null && spent.totalCents + priceCents > fresh.totalCapCents)
            throw new KeyCapError(
              key.id,
              apiKeyMessages.totalCapReached(
                formatCents(fresh.totalCapCents),
                formatCents(spent.totalCents),
                price,
              ),
            );
          if (fresh.maxActiveOrders !== null && spent.activeOrders >= fresh.maxActiveOrders)
            throw new KeyCapError(key.id, apiKeyMessages.activeOrdersCapReached(fresh.maxActiveOrders));
        },
      };
    },

    /**
     * Writes a refusal or another notable use into the key's log (outside any purchase transaction); the
     * same note again within NOTE_COALESCE_MS is not written twice (a bot calling from the wrong address
     * would otherwise fill the log).
     */
    async note(apiKeyId: number, kind: string, detail: string): Promise<void> {
      const nowMs = clock.now().getTime();
      const noteKey = `${apiKeyId}\n${kind}\n${detail}`;
      const lastMs = notedAtMs.get(noteKey);
      if (lastMs !== undefined && nowMs - lastMs < NOTE_COALESCE_MS) return;
      notedAtMs.delete(noteKey);
      if (notedAtMs.size >= NOTES_REMEMBERED) notedAtMs.delete(notedAtMs.keys().next().value!);
      notedAtMs.set(noteKey, nowMs);
      await repository.addEvent(apiKeyId, clock.now(), kind, detail);
    },

    /** Whether a raw key is one this process knows to be live right now (no lookup needed to accept it). */
    isKnown(rawKey: string): boolean {
      const cached = byKey.get(rawKey);
      return !!cached?.key && clock.now().getTime() - cached.loadedAtMs < KEY_CACHE_TTL_MS;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
