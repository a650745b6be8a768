import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';

/**
 * SMS each provider delivered after their order or rent had ended, kept for audit only: what the console
 * counts beside the provider's health (a real provider does it now and then; the built-in one never should).
 */
export async function lateSmsByProvider(db: Executor): Promise<Record<string, number>> {
  const rows = await queryRows<{ provider: string; late: string | number }>(
    db,
    sql`select provider, sum(late)::int as late from (
        select a.provider, count(*) as late from activation_messages m join activations a on a.id = m.activation_id
          where m.late group by a.provider
        union all
        select r.provider, count(*) from rent_messages m join rents r on r.id = m.rent_id
          where m.late group by r.provider
      ) as counts group by provider`,
  );
  return Object.fromEntries(rows.map((row) => [row.provider, Number(row.late)]));
}
