import { getToken } from './session';

/**
 * What the server's event stream says changed (`numbers`, `rents`, `balance`), or `resync` after the stream
 * was lost and is back: what happened meanwhile is unknown.
 */
export type LiveEvent = string;
export const RESYNC: LiveEvent = 'resync';

type Listener = (event: LiveEvent) => void;

const RECONNECT_MS = [1000, 3000, 10_000, 30_000];
const listeners = new Set<Listener>();
let controller: AbortController | null = null;

function emit(event: LiveEvent) {
  for (const listener of listeners) listener(event);
}

/** Reads the stream until it ends or fails. fetch() rather than EventSource: it needs the bearer token. */
async function listen(signal: AbortSignal, connected: () => void): Promise<void> {
  const token = getToken();
  if (!token) return;
  const response = await fetch('/api/dashboard/events', {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal,
  });
  // A refused token is the API calls' business (they end the session); do not hammer the server.
  if (response.status === 401 || response.status === 403) return;
  if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
  connected();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('event stream ended');
    buffer += value;
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const type = /^event: (.+)$/m.exec(block)?.[1];
      if (type) emit(type);
      boundary = buffer.indexOf('\n\n');
    }
  }
}

async function run(signal: AbortSignal): Promise<void> {
  let attempt = 0;
  while (!signal.aborted) {
    try {
      await listen(signal, () => {
        attempt = 0;
      });
      return;
    } catch {
      if (signal.aborted) return;
      const delayMs = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
      attempt += 1;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      emit(RESYNC);
    }
  }
}

/**
 * Listens to the signed-in user's event stream. One connection serves every listener (the pages' data and
 * the code alerts): it opens with the first and closes with the last.
 */
export function subscribeToLiveEvents(listener: Listener): () => void {
  listeners.add(listener);
  if (!controller) {
    controller = new AbortController();
    void run(controller.signal);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      controller?.abort();
      controller = null;
    }
  };
}
