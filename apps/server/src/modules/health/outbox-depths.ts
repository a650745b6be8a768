import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client';

/**
 * Rows waiting in the outboxes the jobs drain: mail not yet sent nor given up, customer webhooks pending.
 * Both counts follow the partial indexes the jobs use, so a scrape reads only what is waiting.
 */
export async function outboxDepths(db: Database): Promise<{ mail: number; webhooks: number }> {
  const [row] = await queryRows<{ mail: number; webhooks: number }>(
    db,
    sql`select
      (select count(*)::int from mail_queue where sent_at is null and failed_at is null) as mail,
      (select count(*)::int from webhook_deliveries where status = 'pending') as webhooks`,
  );
  return row ?? { mail: 0, webhooks: 0 };
}
