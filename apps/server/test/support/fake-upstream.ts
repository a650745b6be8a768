import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fake SMS upstream on 127.0.0.1 for the adapters' tests: it answers whatever a test wants. */

export interface FakeAnswer {
  status?: number;
  body?: string;
  contentType?: string;
}

export interface RecordedRequest {
  /** handler_api.php's `action`; empty for REST-style upstreams (5sim), which `path` tells apart. */
  action: string;
  params: URLSearchParams;
  path: string;
  authorization: string | undefined;
}

/** Answers each request with what `answer` returns; 'hang' never answers, 'reset' drops the connection. */
export async function startFakeUpstream(answer: (request: RecordedRequest) => FakeAnswer | 'hang' | 'reset') {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const parsed = new URL(incoming.url ?? '/', 'http://localhost');
    const params = parsed.searchParams;
    const request = {
      action: params.get('action') ?? '',
      params,
      path: parsed.pathname,
      authorization: incoming.headers.authorization,
    };
    requests.push(request);
    const result = answer(request);
    if (result === 'hang') return;
    if (result === 'reset') {
      incoming.socket.destroy();
      return;
    }
    response.writeHead(result.status ?? 200, {
      'content-type': result.contentType ?? 'text/plain; charset=utf-8',
    });
    response.end(result.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/stubs/handler_api.php`,
    origin,
    requests,
    count: (action: string) => requests.filter((request) => request.action === action).length,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
