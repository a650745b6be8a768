import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client';
import { sessions, users } from '../../apps/server/src/db/schema';
import { applyLedgerChange } from '../../apps/server/src/modules/accounts/ledger';
import { hashPassword } from '../../apps/server/src/modules/auth/passwords';
import { createTokenService } from '../../apps/server/src/modules/auth/tokens';

/** The product's token key in benchmarks, so the bench can sign tokens for the users it seeds. */
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

export interface SeededUser {
  id: number;
  username: string;
  authorization: string;
}

/** Every seeded user's password (asked when the bench creates an API key). */
export const BENCH_PASSWORD = 'bench-password-1';
let benchPasswordHash: Promise<string> | undefined;

/** A user straight in the database with a live session, with money through the ledger. */
export async function seedUser(
  db: Database,
  username: string,
  options: { balanceCents?: number; admin?: boolean } = {},
): Promise<SeededUser> {
  benchPasswordHash ??= hashPassword(BENCH_PASSWORD);
  const [user] = await db
    .insert(users)
    .values({
      username,
      email: `${username}@bench.test`,
      passwordHash: await benchPasswordHash,
      role: options.admin ? 1 : 0,
    })
    .returning();
  if (options.balanceCents) {
    await db.transaction((tx) =>
      applyLedgerChange(tx, {
        userId: user!.id,
        amountCents: options.balanceCents!,
        kind: 'adjustment',
        referenceType: 'bench',
        referenceId: username,
        idempotencyKey: `bench:${username}`,
      }),
    );
  }
  // The server accepts a token only for a live session row.
  const sessionId = randomUUID();
  const now = new Date();
  await db.insert(sessions).values({
    id: sessionId,
    userId: user!.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 7 * 86_400_000),
  });
  const token = await createTokenService(BENCH_JWT_SECRET).sign({
    userId: user!.id,
    role: user!.role,
    tokenVersion: 0,
    sessionId,
  });
  return { id: user!.id, username, authorization: `Bearer ${token}` };
}

/** Finished one-time orders in bulk (no money moves: these stand for history). */
export async function seedActivations(db: Database, userId: number, count: number): Promise<void> {
  await db.execute(sql`
    insert into activations (user_id, provider, provider_activation_id, country_id, operator, service, phone_number,
      price_cents, upstream_max_price, status, created_at, expires_at, updated_at)
    select ${userId}, 'simulator', 'seed-' || ${userId} || '-' || n, 'US', 'any', 'tg', '1555' || lpad(n::text, 7, '0'),
      50, 0.3, 'completed', now() - (n || ' seconds')::interval, now() - (n || ' seconds')::interval + interval '20 minutes', now()
    from generate_series(1, ${count}) as n`);
}

/** Tickets with their first message, half of them answered and closed. */
export async function seedTickets(db: Database, userId: number, count: number): Promise<void> {
  await db.execute(sql`
    insert into tickets (user_id, title, description, status, created_at, updated_at)
    select ${userId}, 'Question ' || n, 'I need help with order ' || n,
      (array['open', 'waiting_for_reply', 'closed'])[1 + n % 3], now() - (n || ' minutes')::interval, now()
    from generate_series(1, ${count}) as n`);
  await db.execute(sql`
    insert into ticket_messages (ticket_id, author_id, is_admin, content, created_at)
    select id, user_id, false, description, created_at from tickets where user_id = ${userId}`);
}

/**
 * Ended long-term rents in bulk (history: expired, and already closed upstream so no job works on them),
 * matching apps/server/src/db/schema/rentals.ts. No money moves.
 */
export async function seedRents(db: Database, userId: number, count: number): Promise<void> {
  await db.execute(sql`
    insert into rents (user_id, provider, provider_rent_id, country_id, service_key, service, phone_number,
      period_unit, period_count, hours, auto_renew, price_cents, upstream_cost, status, created_at, ends_at,
      last_synced_at, upstream_closed_at, updated_at)
    select ${userId}, 'simulator', 'seed-rent-' || ${userId} || '-' || n, 'US', 'opt29', 'tg',
      '1556' || lpad(n::text, 7, '0'), 'hour', 4, 4, false, 150, 1.1, 'expired',
      now() - (n || ' minutes')::interval - interval '4 hours', now() - (n || ' minutes')::interval,
      now() - (n || ' minutes')::interval, now() - (n || ' minutes')::interval, now() - (n || ' minutes')::interval
    from generate_series(1, ${count}) as n`);
}
