import { randomBytes } from 'node:crypto';
import type { AlertChannelCreate, AlertChannelView } from '@simcode/contract';
import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type AlertChannel, alertChannels } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';

export function presentChannel(channel: AlertChannel): AlertChannelView {
  const { target } = channel;
  return {
    id: channel.id,
    kind: channel.kind,
    name: channel.name,
    ...(channel.kind === 'email' ? { addresses: target.addresses ?? [] } : {}),
    ...(channel.kind === 'webhook' ? { url: target.url } : {}),
    ...(channel.kind === 'telegram'
      ? { chat_id: target.chatId, api_base_url: target.apiBaseUrl ?? null }
      : {}),
    enabled: channel.enabled,
    created_at: channel.createdAt.toISOString(),
  };
}

/** The channels' SQL; secrets are sealed on the way in and never leave except to send. */
export function createAlertChannels(db: Database, secretBox: SecretBox) {
  return {
    async list(): Promise<AlertChannel[]> {
      return db.select().from(alertChannels).orderBy(desc(alertChannels.id));
    },

    /** Adds a channel; a webhook's signing secret is made here and returned this once. */
    async create(input: AlertChannelCreate, createdBy: number, now: Date) {
      let secret: string | undefined;
      let sealed: string | null = null;
      if (input.kind === 'webhook') {
        secret = `whsec_${randomBytes(24).toString('base64url')}`;
        sealed = secretBox.seal(secret);
      } else if (input.kind === 'telegram') sealed = secretBox.seal(input.bot_token.trim());
      const target =
        input.kind === 'email'
          ? { addresses: input.addresses.map((address) => address.trim().toLowerCase()) }
          : input.kind === 'webhook'
            ? { url: input.url.trim() }
            : { chatId: input.chat_id.trim(), apiBaseUrl: input.api_base_url?.trim() || null };
      const [channel] = await db
        .insert(alertChannels)
        .values({
          kind: input.kind,
          name: input.name.trim(),
          target,
          secret: sealed,
          createdBy,
          createdAt: now,
        })
        .returning();
      return { channel: channel!, secret };
    },

    async setEnabled(id: number, enabled: boolean): Promise<AlertChannel | undefined> {
      const [channel] = await db
        .update(alertChannels)
        .set({ enabled })
        .where(eq(alertChannels.id, id))
        .returning();
      return channel;
    },

    async remove(id: number): Promise<boolean> {
      const removed = await db
        .delete(alertChannels)
        .where(eq(alertChannels.id, id))
        .returning({ id: alertChannels.id });
      return removed.length > 0;
    },
  };
}
