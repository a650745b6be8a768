import { LANGUAGES } from '@simcode/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    username: text().notNull(),
    email: text().notNull(),
    passwordHash: text('password_hash').notNull(),
    /** 0 user, 1 administrator. Read from here on every request, never from the token alone. */
    role: smallint().notNull().default(0),
    /** Integer cents. Only the accounts module changes it, always together with a ledger entry. */
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(0),
    /** Bumped to revoke every token issued before (logout everywhere, demotion, password change). */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * The credential stamp: bumped by every revocation (modules/auth/revocation.ts). Each mailed link and
     * two-factor challenge carries the stamp it was made under and is refused once it moved on.
     */
    credentialVersion: integer('credential_version').notNull().default(0),
    /** Base32 TOTP secret once two-factor sign-in is on, sealed (lib/secret-box.ts); null while it is off. */
    totpSecret: text('totp_secret'),
    /** A secret shown by the setup and not confirmed with a code yet (sealed too). */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last TOTP time step accepted: a code is good once, even within its 30 seconds. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Opt-in: e-mail the user when one of their numbers receives a code. */
    codeEmails: boolean('code_emails').notNull().default(false),
    /** Opt-in: the dashboard buys without asking first (a price that went up since it was shown still asks). */
    oneClickBuying: boolean('one_click_buying').notNull().default(false),
    /** The language the user chose for the site and their e-mails; null until they choose one. */
    language: text({ enum: LANGUAGES }),
    /** Set by an administrator: the user cannot sign in, buy or use API keys until unblocked. */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    blockedReason: text('blocked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${table.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`),
    check('users_balance_non_negative', sql`${table.balanceCents} >= 0`),
    check('users_role_known', sql`${table.role} in (0, 1)`),
    check('users_language_known', sql`${table.language} in ('en', 'ru', 'zh')`),
  ],
);

export type User = typeof users.$inferSelect;

/** Solved captcha challenges, so a payload is accepted once (replay protection shared by every instance). */
export const captchaUses = pgTable('captcha_uses', {
  challengeId: text('challenge_id').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * One row per issued token (its `jti`): the account's active sessions, and the server-side end of a token
 * before its expiry (sign out, sign out everywhere, a password or role change).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    address: text(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Why it ended (a revocation's cause, or `sign_out`): the device it ended on is told why. */
    revokedCause: text('revoked_cause'),
  },
  (table) => [index('sessions_user_idx').on(table.userId, table.expiresAt)],
);

export type Session = typeof sessions.$inferSelect;

/**
 * A sign-in waiting for its second factor: the password was right. The challenge token names this row, so a
 * challenge signs in once, counts its own wrong codes, and dies with the credential stamp it was made under.
 */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: text().primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialVersion: integer('credential_version').notNull(),
    failures: integer().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('two_factor_challenges_user_idx').on(table.userId)],
);

/**
 * Wrong second-factor codes, by what they were tried against: a sign-in challenge (`challenge:<id>`) or a
 * signed-in account's own checks (`account:<id>`). Only failures count: a right code after a typo passes.
 */
export const secondFactorFailures = pgTable(
  'second_factor_failures',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    scope: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('second_factor_failures_scope_idx').on(table.scope, table.at)],
);
