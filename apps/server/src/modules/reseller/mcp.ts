import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { createKeyCheck } from '../api-keys/key-check';
import type { WaitSlots } from '../api-keys/wait-slots';
import type { ResellerDeps } from './deps';

/** JSON-RPC's error codes this endpoint answers with. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;
const UNAUTHORIZED = -32001;

/**
 * The protocol's SDK and the tools, loaded on the first MCP request: the SDK is among the largest modules of
 * the server, and most processes never serve an agent.
 */
async function loadMcp() {
  const [{ StreamableHTTPServerTransport }, { buildMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./mcp-tools'),
  ]);
  return { StreamableHTTPServerTransport, buildMcpServer };
}

function rpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * `/mcp`: the Model Context Protocol over streamable HTTP (stateless, JSON answers), authenticated by an
 * API key in `Authorization: Bearer` or `X-Api-Key`. One JSON-RPC message per request, as the protocol's
 * current revision has it: a batch is refused, so every call counts against the key's limits on its own.
 * Client mistakes (bad JSON, a body over the limit, a batch) answer 4xx with a JSON-RPC error.
 */
export function registerMcp(
  app: FastifyInstance,
  deps: ResellerDeps,
  keyOf: ReturnType<typeof createKeyCheck>,
  limits: preHandlerAsyncHookHandler[],
  waits: WaitSlots,
) {
  async function checkKey(request: FastifyRequest, reply: FastifyReply) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const header = request.headers['x-api-key'];
    const checked = await keyOf(request, bearer ?? (typeof header === 'string' ? header.trim() : undefined));
    if (typeof checked === 'string')
      return reply
        .code(checked === 'too_many_lookups' ? 429 : 401)
        .header('www-authenticate', 'Bearer')
        .send({
          jsonrpc: '2.0',
          error: {
            code: UNAUTHORIZED,
            message: 'A valid API key is required (Authorization: Bearer <key>).',
          },
          id: null,
        });
  }

  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp',
    logLevel: 'warn',
    schema: { hide: true },
    onRequest: checkKey,
    preHandler: limits,
    errorHandler: (error, _request, reply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status === 429) return rpcError(reply, 429, SERVER_ERROR, `Too many requests: ${error.message}`);
      if (status >= 400 && status < 500)
        return rpcError(
          reply,
          status,
          status === 400 ? PARSE_ERROR : INVALID_REQUEST,
          status === 413 ? 'The request body is too large.' : 'The request body is not valid JSON.',
        );
      deps.log.error({ err: error }, 'MCP request failed');
      return rpcError(reply, 500, SERVER_ERROR, 'Internal error');
    },
    handler: async (request, reply) => {
      if (request.method !== 'POST') {
        reply.header('allow', 'POST');
        return rpcError(reply, 405, SERVER_ERROR, 'Method not allowed: this server is stateless.');
      }
      if (Array.isArray(request.body))
        return rpcError(
          reply,
          400,
          INVALID_REQUEST,
          'Batches are not supported: send one message per request.',
        );
      const { StreamableHTTPServerTransport, buildMcpServer } = await loadMcp();
      const server = buildMcpServer(deps, request.resellerKey!, waits);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
}
