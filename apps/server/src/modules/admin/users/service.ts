import {
  ADMIN_ROLE,
  type AdminLedgerEntry,
  type AdminUserRow,
  adminMessages,
  centsToDollars,
  formatCents,
} from '@simcode/contract';
import { and, desc, eq, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client';
import {
  apiKeys,
  type LedgerEntry,
  ledgerEntries,
  recoveryCodes,
  sessions,
  tickets,
  type User,
  users,
} from '../../../db/schema';
import type { UserEventBus } from '../../../db/user-events';
import type { Clock } from '../../../lib/clock';
import { fail, notFound } from '../../../lib/errors';
import { applyLedgerChange, InsufficientBalanceError, lockAccount } from '../../accounts/ledger';
import { createCredentialRevocation, type RevocationCause } from '../../auth/revocation';

import {
  type Actor,
  containsPattern,
  createAuditRepository,
  nextBefore,
  presentAudit,
  recordAudit,
} from '../audit';

export function presentUserRow(user: User): AdminUserRow {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role === ADMIN_ROLE ? 'admin' : 'user',
    balance: centsToDollars(user.balanceCents),
    created_at: user.createdAt.toISOString(),
    blocked: user.blockedAt !== null,
    two_factor: user.totpSecret !== null,
  };
}

export function presentLedgerEntry(entry: LedgerEntry): AdminLedgerEntry {
  return {
    id: entry.id,
    created_at: entry.createdAt.toISOString(),
    kind: entry.kind,
    amount: centsToDollars(entry.amountCents),
    balance_after: centsToDollars(entry.balanceAfterCents),
    reference_type: entry.referenceType,
    reference_id: entry.referenceId,
    note: entry.note,
  };
}

/** What an audit entry keeps of a user: the fields an action can change. */
function auditedState(user: User) {
  return {
    role: user.role === ADMIN_ROLE ? 'admin' : 'user',
    blocked: user.blockedAt !== null,
    blocked_reason: user.blockedReason,
    two_factor: user.totpSecret !== null,
    balance: centsToDollars(user.balanceCents),
  };
}

interface Deps {
  db: Database;
  events: UserEventBus;
  clock: Clock;
}

/**
 * The console's users: search, a user's page, and the actions on an account. Each action changes the
 * account and writes its audit entry in one transaction, under the user's row lock, so two administrators
 * acting at once are applied one after the other and each entry's "before" is what that action saw.
 */
export function createAdminUsersService({ db, events, clock }: Deps) {
  const audit = createAuditRepository(db);
  const revocation = createCredentialRevocation({ db, events, clock });

  async function lockedUser(tx: Transaction, userId: number) {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw notFound();
    return user;
  }

  /**
   * Runs an action on a user: locks the row, lets `change` update it (returning the changed row), records
   * the entry, and tells every instance that the account changed (its cached sessions are read anew).
   */
  async function act(
    actor: Actor,
    userId: number,
    action: string,
    reason: string,
    change: (tx: Transaction, user: User) => Promise<User>,
  ): Promise<User> {
    const updated = await db.transaction(async (tx) => {
      const user = await lockedUser(tx, userId);
      const after = await change(tx, user);
      await recordAudit(
        tx,
        actor,
        {
          action,
          objectType: 'user',
          objectId: userId,
          before: auditedState(user),
          after: auditedState(after),
          reason,
        },
        clock.now(),
      );
      return after;
    });
    revocation.announce(userId);
    return updated;
  }

  async function update(
    tx: Transaction,
    userId: number,
    values: Parameters<ReturnType<Transaction['update']>['set']>[0],
  ): Promise<User> {
    const [row] = await tx.update(users).set(values).where(eq(users.id, userId)).returning();
    return row!;
  }

  /**
   * Ends every credential of the user (modules/auth/revocation.ts) inside the action's transaction, then
   * reads the row back as the action left it.
   */
  async function revokeCredentials(tx: Transaction, userId: number, cause: RevocationCause): Promise<User> {
    await revocation.revokeWithin(tx, { userId, cause });
    const [row] = await tx.select().from(users).where(eq(users.id, userId));
    return row!;
  }

  function refuseSelf(actor: Actor, userId: number) {
    if (actor.id === userId) throw fail('not_yourself');
  }

  return {
    async list(query: { q?: string; before?: number; limit: number }) {
      const conditions: SQL[] = [];
      if (query.before !== undefined) conditions.push(lt(users.id, query.before));
      const text = query.q?.trim();
      if (text) {
        const pattern = containsPattern(text);
        const byText = or(ilike(users.username, pattern), ilike(users.email, pattern))!;
        conditions.push(/^[1-9]\d{0,9}$/.test(text) ? or(byText, eq(users.id, Number(text)))! : byText);
      }
      const rows = await db
        .select()
        .from(users)
        .where(and(...conditions))
        .orderBy(desc(users.id))
        .limit(query.limit);
      return { users: rows.map(presentUserRow), next_before: nextBefore(rows, query.limit) };
    },

    async detail(userId: number) {
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user) throw notFound();
      const [sessionRows, keyRows, ticketRows, auditRows] = await Promise.all([
        db
          .select()
          .from(sessions)
          .where(eq(sessions.userId, userId))
          .orderBy(desc(sessions.createdAt))
          .limit(50),
        db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.id)).limit(50),
        db.select().from(tickets).where(eq(tickets.userId, userId)).orderBy(desc(tickets.id)).limit(50),
        audit.forObject('user', userId),
      ]);
      return {
        user: {
          ...presentUserRow(user),
          blocked_reason: user.blockedReason,
          blocked_at: user.blockedAt?.toISOString() ?? null,
        },
        sessions: sessionRows.map((session) => ({
          id: session.id,
          created_at: session.createdAt.toISOString(),
          last_seen_at: session.lastSeenAt.toISOString(),
          address: session.address,
          user_agent: session.userAgent,
          revoked_at: session.revokedAt?.toISOString() ?? null,
        })),
        api_keys: keyRows.map((key) => ({
          id: key.id,
          name: key.name,
          created_at: key.createdAt.toISOString(),
          revoked_at: key.revokedAt?.toISOString() ?? null,
        })),
        tickets: ticketRows.map((ticket) => ({
          id: ticket.id,
          subject: ticket.title,
          status: ticket.status,
          created_at: ticket.createdAt.toISOString(),
        })),
        audit: auditRows.map(presentAudit),
      };
    },

    async ledger(userId: number, query: { before?: number; limit: number }) {
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!user) throw notFound();
      const rows = await db
        .select()
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.userId, userId),
            query.before === undefined ? undefined : lt(ledgerEntries.id, query.before),
          ),
        )
        .orderBy(desc(ledgerEntries.id))
        .limit(query.limit);
      return { entries: rows.map(presentLedgerEntry), next_before: nextBefore(rows, query.limit) };
    },

    /**
     * A credit or debit through the ledger, with its audit entry in the same transaction. The key makes a
     * retry (a double click, a resent form) apply once; the same key for another request is refused.
     */
    async adjust(
      actor: Actor,
      userId: number,
      adjustment: { amountCents: number; reason: string; idempotencyKey: string },
    ): Promise<{ user: User; applied: boolean; message: string }> {
      const idempotencyKey = `adjustment:${adjustment.idempotencyKey}`;
      try {
        const outcome = await db.transaction(async (tx) => {
          const user = await lockedUser(tx, userId);
          await lockAccount(tx, userId);
          const result = await applyLedgerChange(tx, {
            userId,
            amountCents: adjustment.amountCents,
            kind: 'adjustment',
            referenceType: 'admin',
            referenceId: actor.username,
            idempotencyKey,
            note: adjustment.reason,
          });
          if (!result.applied) {
            const [earlier] = await tx
              .select()
              .from(ledgerEntries)
              .where(eq(ledgerEntries.idempotencyKey, idempotencyKey));
            const same =
              earlier?.userId === userId &&
              earlier.amountCents === adjustment.amountCents &&
              earlier.note === adjustment.reason;
            if (!same) throw fail('idempotency_key_reused');
            return { user, applied: false };
          }
          const after = { ...user, balanceCents: result.balanceAfterCents };
          await recordAudit(
            tx,
            actor,
            {
              action: adjustment.amountCents > 0 ? 'user.credit' : 'user.debit',
              objectType: 'user',
              objectId: userId,
              before: { balance: centsToDollars(user.balanceCents) },
              after: {
                balance: centsToDollars(after.balanceCents),
                amount: centsToDollars(adjustment.amountCents),
              },
              reason: adjustment.reason,
            },
            clock.now(),
          );
          return { user: after, applied: true };
        });
        if (outcome.applied) events.publish({ userId, type: 'balance' });
        const amount = formatCents(Math.abs(adjustment.amountCents));
        const message = !outcome.applied
          ? adminMessages.alreadyApplied
          : adjustment.amountCents > 0
            ? adminMessages.credited(amount, outcome.user.username)
            : adminMessages.debited(amount, outcome.user.username);
        return { ...outcome, message };
      } catch (error) {
        if (error instanceof InsufficientBalanceError) throw fail('balance_below_zero');
        throw error;
      }
    },

    /** A blocked user cannot sign in, buy or use API keys; every token stops at once. */
    async block(actor: Actor, userId: number, reason: string): Promise<User> {
      refuseSelf(actor, userId);
      return act(actor, userId, 'user.block', reason, async (tx, user) => {
        if (user.blockedAt) throw fail('already_blocked');
        await update(tx, userId, { blockedAt: clock.now(), blockedReason: reason });
        return revokeCredentials(tx, userId, 'block');
      });
    },

    async unblock(actor: Actor, userId: number, reason: string): Promise<User> {
      return act(actor, userId, 'user.unblock', reason, async (tx, user) => {
        if (!user.blockedAt) throw fail('not_blocked');
        return update(tx, userId, { blockedAt: null, blockedReason: null });
      });
    },

    /** A role change ends the user's sessions, so no token carries the old role's claim. */
    async setRole(actor: Actor, userId: number, role: 'user' | 'admin', reason: string): Promise<User> {
      refuseSelf(actor, userId);
      const value = role === 'admin' ? ADMIN_ROLE : 0;
      return act(
        actor,
        userId,
        role === 'admin' ? 'user.promote' : 'user.demote',
        reason,
        async (tx, user) => {
          if (user.role === value) throw fail('same_role');
          await update(tx, userId, { role: value });
          return revokeCredentials(tx, userId, 'role_change');
        },
      );
    },

    /** For a user who lost both the authenticator and the recovery codes (after checking who they are). */
    async resetTwoFactor(actor: Actor, userId: number, reason: string): Promise<User> {
      return act(actor, userId, 'user.reset_two_factor', reason, async (tx, user) => {
        if (!user.totpSecret) throw fail('two_factor_not_on');
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await update(tx, userId, { totpSecret: null, totpPendingSecret: null, totpLastStep: null });
        return revokeCredentials(tx, userId, 'two_factor_change');
      });
    },

    async signOutEverywhere(actor: Actor, userId: number, reason: string): Promise<User> {
      return act(actor, userId, 'user.sign_out', reason, (tx) =>
        revokeCredentials(tx, userId, 'admin_sign_out'),
      );
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
