/**
 * Calls between two threads over their message channel: each side answers the other's calls with its own
 * handlers and awaits its own calls' answers. Arguments and results cross by structured clone, so they are
 * plain data (or errors).
 */

/** A `Worker`, or `parentPort` inside one. */
export interface ThreadEndpoint {
  postMessage(value: unknown): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
}

/** One side's methods, as an interface names them. */
// biome-ignore lint/suspicious/noExplicitAny: each method's own signature types its arguments.
type Methods<Side> = { [Name in keyof Side]: (...args: any[]) => unknown };

type Message =
  | { kind: 'call'; id: number; method: string; args: unknown[] }
  | { kind: 'answer'; id: number; value?: unknown; error?: unknown };

export interface ThreadCalls<Remote extends Methods<Remote>> {
  call<Method extends keyof Remote & string>(
    method: Method,
    ...args: Parameters<Remote[Method]>
  ): Promise<Awaited<ReturnType<Remote[Method]>>>;
  /** Rejects every call still waiting: the other side is gone. */
  failPending(error: Error): void;
}

export function threadCalls<Remote extends Methods<Remote>, Own extends Methods<Own>>(
  endpoint: ThreadEndpoint,
  handlers: Own,
): ThreadCalls<Remote> {
  let lastId = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();

  async function answer(id: number, method: string, args: unknown[]) {
    let reply: Message;
    try {
      const handler = (handlers as Partial<Record<string, (...args: unknown[]) => unknown>>)[method];
      if (!handler) throw new Error(`no handler for ${method}`);
      reply = { kind: 'answer', id, value: await handler(...args) };
    } catch (error) {
      reply = { kind: 'answer', id, error };
    }
    try {
      endpoint.postMessage(reply);
    } catch (notCloneable) {
      // What cannot cross is told as an error that can, or the caller would wait forever.
      endpoint.postMessage({ kind: 'answer', id, error: new Error(String(notCloneable)) } satisfies Message);
    }
  }

  endpoint.on('message', (value) => {
    const message = value as Message;
    if (message.kind === 'call') {
      void answer(message.id, message.method, message.args);
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (!waiting) return;
    if ('error' in message) waiting.reject(message.error);
    else waiting.resolve(message.value);
  });

  return {
    call(method, ...args) {
      const id = ++lastId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        endpoint.postMessage({ kind: 'call', id, method, args } satisfies Message);
      });
    },
    failPending(error) {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    },
  };
}
