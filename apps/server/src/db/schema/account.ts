import { LANGUAGES } from '@simcode/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

export const accountLinkPurposes = ['password_reset', 'email_change', 'email_revert'] as const;
export type AccountLinkPurpose = (typeof accountLinkPurposes)[number];

/**
 * Links sent by e-mail (password reset, e-mail change). Only the SHA-256 of the token is kept, so a copy of
 * the database opens no account; a link works once, until it expires.
 */
export const accountLinks = pgTable(
  'account_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: accountLinkPurposes }).notNull(),
    /** The address an e-mail change moves to, or (a revert) the address it moves back to. */
    newEmail: text('new_email'),
    /**
     * The user's credential stamp when the link was made: a revocation moves the stamp on and the link dies.
     * A revert link ignores it: it is the old owner's way back, and must outlive the taker's clean-up.
     */
    credentialVersion: integer('credential_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    index('account_links_user_idx').on(table.userId, table.purpose),
    check(
      'account_links_purpose_known',
      sql`${table.purpose} in ('password_reset', 'email_change', 'email_revert')`,
    ),
  ],
);

/** Two-factor recovery codes, stored as SHA-256 hashes; each works once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('recovery_codes_user_code_key').on(table.userId, table.codeHash)],
);

export const mailTemplates = [
  'password_reset',
  'email_change',
  'email_change_requested',
  'email_changed',
  'api_key_created',
  'api_key_paused',
  'topup_receipt',
  'code_received',
  'status_incident',
  'operator_alert',
] as const;
export type MailTemplate = (typeof mailTemplates)[number];

/**
 * Mail waiting to go out. Requests and database triggers only add rows; the mail job sends them with
 * retries, so no request waits on a mail server and no receipt is lost when one is down.
 */
export const mailQueue = pgTable(
  'mail_queue',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null: the user's address at sending time. Set for mail to an address not confirmed yet. */
    toAddress: text('to_address'),
    template: text({ enum: mailTemplates }).notNull(),
    payload: jsonb().notNull().$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer().notNull().default(0),
    /** When the job may take it next; a claim moves it forward, so a crashed send is retried later. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** The language of the request that caused the mail, for a recipient who has not chosen one. */
    language: text({ enum: LANGUAGES }),
  },
  (table) => [
    index('mail_queue_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
    check(
      'mail_queue_template_known',
      sql`${table.template} in ('password_reset', 'email_change', 'email_change_requested', 'email_changed', 'api_key_created', 'api_key_paused', 'topup_receipt', 'code_received', 'status_incident', 'operator_alert')`,
    ),
    check('mail_queue_language_known', sql`${table.language} in ('en', 'ru', 'zh')`),
  ],
);

export type MailQueueRow = typeof mailQueue.$inferSelect;
