import type { UserEvent } from '../../../db/user-events';
import type { ActivationDeps } from './deps';

/** Where an order stands for a client waiting for its code. */
export interface CodeState {
  /** `waiting` until a code (or the next one, after "another SMS") arrives; `ended` when none will. */
  status: 'waiting' | 'received' | 'completed' | 'ended';
  /** The latest code; with `waiting`, the one before the SMS asked for next, if any. */
  code: string | null;
}

async function readState(
  deps: ActivationDeps,
  userId: number,
  orderId: number,
): Promise<CodeState | undefined> {
  const order = await deps.repository.findForUser(userId, orderId);
  if (!order || order.status === 'failed') return undefined;
  switch (order.status) {
    case 'pending':
    case 'waiting':
      return { status: 'waiting', code: null };
    case 'received': {
      const [code, retries, messages] = await Promise.all([
        deps.repository.latestCode(order.id),
        deps.repository.retryRequestsFor([order.id]),
        deps.repository.messagesFor([order.id]),
      ]);
      const retry = retries.get(order.id);
      const awaitingAnother = retry !== undefined && messages.length <= retry.messagesBefore;
      return { status: awaitingAnother ? 'waiting' : 'received', code };
    }
    case 'completed':
      return { status: 'completed', code: await deps.repository.latestCode(order.id) };
    default:
      return { status: 'ended', code: null };
  }
}

/**
 * Waits up to `timeoutMs` for the order's code: the order is read once, then only its events are
 * listened to, so a waiting client costs no database or upstream work until something happens to its order.
 * A new code arrives in the event itself and is answered as is; any other change is read once more.
 * Undefined when the user has no such order.
 */
export async function waitForCode(
  deps: ActivationDeps,
  userId: number,
  orderId: number,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<CodeState | undefined> {
  const changes: UserEvent[] = [];
  let wake: (() => void) | undefined;
  // Listening starts before the first read, so a code stored between the two is not missed.
  const stop = deps.events.subscribe(userId, (event) => {
    if (event.type !== 'numbers' || event.orderId !== orderId) return;
    changes.push(event);
    wake?.();
  });
  const deadline = Date.now() + options.timeoutMs;
  try {
    let state = await readState(deps, userId, orderId);
    while (state?.status === 'waiting' && !options.signal?.aborted) {
      const event = changes.shift();
      if (event?.code) return { status: 'received', code: event.code };
      if (event) {
        state = await readState(deps, userId, orderId);
        continue;
      }
      const leftMs = deadline - Date.now();
      if (leftMs <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, leftMs);
        const done = () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', done);
          wake = undefined;
          resolve();
        };
        wake = done;
        options.signal?.addEventListener('abort', done, { once: true });
      });
    }
    return state;
  } finally {
    stop();
  }
}
