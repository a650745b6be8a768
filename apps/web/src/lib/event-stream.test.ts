import type { LiveEvent } from '@simcode/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type StreamEvent, subscribeToLiveEvents } from './event-stream';

/** An event stream answering these chunks of text, then ending. */
function streamOf(chunks: string[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

/** Every event of the stream, until it ended and the listener was told to resync; then stops listening. */
function receiveUntilResync(): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  return new Promise((resolve) => {
    const stop = subscribeToLiveEvents((event) => {
      if (event.type === 'resync') {
        stop();
        resolve(events);
      } else {
        events.push(event);
      }
    });
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the live event stream', () => {
  it('reads each message against the contract: what changed, and what is known about it', async () => {
    localStorage.setItem('token', 'header.payload.signature');
    const fetch = vi.fn(
      async () =>
        new Response(
          streamOf([
            'event: numbers\ndata: {}\n\n',
            'event: ping\ndata: {}\n\n',
            'event: numbers\ndata: {"order_id":12,',
            '"code":"48213"}\n\nevent: rents\ndata: {"rent_id":"x"}\n\n',
            'event: balance\ndata: {}\n\n',
          ]),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    const expected: LiveEvent[] = [
      { type: 'numbers', data: {} },
      // A message split across chunks is read whole; a kind this client does not know is skipped.
      { type: 'numbers', data: { order_id: 12, code: '48213' } },
      // Details that do not match the schema are dropped, the change itself is kept.
      { type: 'rents', data: {} },
      { type: 'balance', data: {} },
    ];
    expect(await receiveUntilResync()).toEqual(expected);
    expect(fetch).toHaveBeenCalledWith(
      '/api/dashboard/events',
      expect.objectContaining({
        headers: { authorization: 'Bearer header.payload.signature', accept: 'text/event-stream' },
      }),
    );
  });
});
