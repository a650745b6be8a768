import type { Executor } from '../../db/client';
import type { IncidentRow } from '../../db/schema';
import { createMailQueue } from '../mail/queue';
import type { LocalizedRow } from './repository';

/**
 * The e-mail notices of an incident that opened or closed, one per subscriber, queued in the transaction
 * of the change: each goes out in the subscriber's own language (the mail job picks it).
 */
export async function queueIncidentNotices(
  tx: Executor,
  subscriberIds: readonly number[],
  incident: IncidentRow,
  event: 'opened' | 'resolved',
  componentName: string,
  text: LocalizedRow,
  now: Date,
): Promise<void> {
  const queue = createMailQueue(tx);
  const title = { en: incident.titleEn, ru: incident.titleRu, zh: incident.titleZh };
  for (const userId of subscriberIds) {
    await queue.enqueue({
      userId,
      template: 'status_incident',
      payload: { incidentId: incident.id, event, component: componentName, title, text },
      now,
    });
  }
}
