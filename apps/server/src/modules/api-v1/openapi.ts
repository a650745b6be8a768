import { API_V1_PREFIX } from '@simcode/contract';

type Document = {
  openapi?: string;
  info?: Record<string, unknown>;
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: Array<{ name: string }>;
};

/**
 * The JSON API's own OpenAPI 3.1 document: the server's document (built from the routes' schemas, so it
 * cannot drift from what the routes validate) narrowed to `/api/v1`, with its key scheme and server. A
 * client is generated from it (packages/client).
 */
export function describeApiV1(whole: unknown, publicUrl: string) {
  const document = whole as Document;
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {})
      .filter(([path]) => path.startsWith(`${API_V1_PREFIX}/`) && path !== `${API_V1_PREFIX}/openapi.json`)
      .map(([path, item]) => [path.slice(API_V1_PREFIX.length), item]),
  );
  return {
    openapi: document.openapi,
    info: {
      ...document.info,
      title: `${String(document.info?.title ?? 'SimCode API').replace(/ API$/, '')} API v1`,
      description:
        'Buy one-time numbers and rents, wait for codes and read the ledger, with an API key (`Authorization: Bearer <key>`). Writes take an `Idempotency-Key` header; lists page with `cursor`; errors are RFC 9457 problem details.',
    },
    servers: [{ url: `${publicUrl}${API_V1_PREFIX}` }],
    paths,
    components: {
      schemas: document.components?.schemas ?? {},
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from the API keys page.' },
      },
    },
    tags: (document.tags ?? []).filter((tag) => tag.name.startsWith('v1 ')),
  };
}
