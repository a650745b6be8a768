import { apiPaths, type LiveEvent, parseLiveEvent } from '@simcode/contract';
import { getToken } from './session';

/** The stream was lost and is back: what happened meanwhile is unknown. */
export const RESYNC = 'resync';

/**
 * What the server's event stream says changed (`numbers`, `rents`, `balance`, checked against the
 * contract's schemas, with what is known about it), or a resync.
 */
export type StreamEvent = LiveEvent | { type: typeof RESYNC };

type Listener = (event: StreamEvent) => void;

const RECONNECT_MS = [1000, 3000, 10_000, 30_000];
const listeners = new Set<Listener>();
let controller: AbortController | null = null;

function emit(event: StreamEvent) {
  for (const listener of listeners) listener(event);
}

/** One message of the stream: its `event:` name and its `data:` lines, joined as the format says. */
function readBlock(block: string): LiveEvent | null {
  const type = /^event: ?(.+)$/m.exec(block)?.[1];
  if (!type) return null;
  const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((line) => line[1]).join('\n');
  return parseLiveEvent(type, data);
}

/** Reads the stream until it ends or fails. fetch() rather than EventSource: it needs the bearer token. */
async function listen(signal: AbortSignal, connected: () => void): Promise<void> {
  const token = getToken();
  if (!token) return;
  const response = await fetch(apiPaths.dashboard.events, {
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
      const event = readBlock(block);
      if (event) emit(event);
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
      emit({ type: RESYNC });
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
