import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.generated';

export type { paths };

export interface SimCodeClientOptions {
  /** Where SimCode serves, such as `https://simcode.example` (the client adds `/api/v1`). */
  baseUrl: string;
  /** An API key from the API keys page. */
  apiKey: string;
  /** Another fetch (a proxy's, a test's); the platform's by default. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A typed client of the JSON API: every path, parameter, body and answer as the OpenAPI document describes
 * them (the types are generated from it), over `fetch`. Each call answers `{ data }` or `{ error }` (an RFC
 * 9457 problem), never throws for an HTTP error.
 *
 *   const simcode = createSimCodeClient({ baseUrl: 'https://simcode.example', apiKey: process.env.SIMCODE_KEY! });
 *   const { data: order } = await simcode.POST('/orders', {
 *     body: { service: 'Telegram', countries: ['Israel', 'UK'], max_price: 0.8 },
 *     headers: { 'idempotency-key': crypto.randomUUID() },
 *   });
 *   const { data: code } = await simcode.GET('/orders/{id}/code', {
 *     params: { path: { id: String(order!.id) }, query: { wait: '60' } },
 *   });
 */
export function createSimCodeClient(options: SimCodeClientOptions): Client<paths> {
  return createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/v1`,
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: options.fetch,
  });
}
