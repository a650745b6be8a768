import type { Examples } from './code-block';

/** One call of `/api/v1`, from which its curl, JavaScript and Python examples are written. */
export interface JsonCall {
  /** The anchor and the catalogue key of its description. */
  id: string;
  method: 'GET' | 'POST';
  /** As the OpenAPI document writes it: `/orders/{id}/code`. */
  path: string;
  pathParams?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  /** Python's timeout must outlast a long-poll. */
  timeoutSeconds?: number;
}

export const jsonCalls: JsonCall[] = [
  { id: 'offers', method: 'GET', path: '/offers', query: { country: 'Israel', service: 'Telegram' } },
  {
    id: 'buy',
    method: 'POST',
    path: '/orders',
    body: { service: 'Telegram', countries: ['Israel', 'United Kingdom'], max_price: 0.8 },
  },
  {
    id: 'code',
    method: 'GET',
    path: '/orders/{id}/code',
    pathParams: { id: '42' },
    query: { wait: 60 },
    timeoutSeconds: 70,
  },
  { id: 'order', method: 'GET', path: '/orders/{id}', pathParams: { id: '42' } },
  { id: 'anotherSms', method: 'POST', path: '/orders/{id}/another-sms', pathParams: { id: '42' } },
  { id: 'cancel', method: 'POST', path: '/orders/{id}/cancel', pathParams: { id: '42' } },
  { id: 'finish', method: 'POST', path: '/orders/{id}/finish', pathParams: { id: '42' } },
  { id: 'orders', method: 'GET', path: '/orders', query: { limit: 20, cursor: 'NEXT_CURSOR' } },
  {
    id: 'rent',
    method: 'POST',
    path: '/rents',
    body: { service: 'WhatsApp', country: 'United Kingdom', period: '2 weeks', auto_renew: true },
  },
  { id: 'balance', method: 'GET', path: '/balance' },
  { id: 'ledger', method: 'GET', path: '/ledger', query: { limit: 50 } },
];

function filledPath(call: JsonCall): string {
  return call.path.replace(/\{(\w+)\}/g, (_, name: string) => call.pathParams?.[name] ?? name);
}

/** A value as JavaScript writes it (single quotes, unquoted keys). */
function javascriptValue(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(javascriptValue).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([key, inner]) => `${key}: ${javascriptValue(inner)}`)
      .join(', ')} }`;
  return String(value);
}

/** A value as Python writes it. */
function pythonValue(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null) return 'None';
  if (Array.isArray(value)) return `[${value.map(pythonValue).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, inner]) => `"${key}": ${pythonValue(inner)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** The lines every example starts from: the key in the environment, a client, a session. */
export function setupExamples(origin: string): Examples {
  return {
    curl: `export SIMCODE_KEY=sc_...   # from the API page of your dashboard
curl "${origin}/api/v1/balance" -H "Authorization: Bearer $SIMCODE_KEY"
# or: -H "X-Api-Key: $SIMCODE_KEY"`,
    javascript: `// npm install @simcode/client (packages/client)
import { randomUUID } from 'node:crypto';
import { createSimCodeClient } from '@simcode/client';

const simcode = createSimCodeClient({ baseUrl: '${origin}', apiKey: process.env.SIMCODE_KEY });
const { data, error } = await simcode.GET('/balance'); // { data } or { error }: never throws for HTTP`,
    python: `# pip install requests
import os, uuid, requests

API = "${origin}/api/v1"
session = requests.Session()
session.headers["Authorization"] = f"Bearer {os.environ['SIMCODE_KEY']}"
print(session.get(f"{API}/balance", timeout=30).json())`,
  };
}

export function callExamples(origin: string, call: JsonCall): Examples {
  const path = filledPath(call);
  const query = call.query
    ? `?${new URLSearchParams(Object.entries(call.query).map(([k, v]) => [k, String(v)]))}`
    : '';
  const curl = [
    `curl${call.method === 'POST' ? ' -X POST' : ''} "${origin}/api/v1${path}${query}"`,
    '-H "Authorization: Bearer $SIMCODE_KEY"',
    ...(call.method === 'POST' ? ['-H "Idempotency-Key: $(uuidgen)"'] : []),
    ...(call.body ? ['-H "Content-Type: application/json"', `-d '${JSON.stringify(call.body)}'`] : []),
  ].join(' \\\n  ');

  const options: string[] = [];
  const params: string[] = [];
  if (call.pathParams) params.push(`path: ${javascriptValue(call.pathParams)}`);
  if (call.query)
    params.push(
      `query: ${javascriptValue(Object.fromEntries(Object.entries(call.query).map(([k, v]) => [k, String(v)])))}`,
    );
  if (params.length > 0) options.push(`params: { ${params.join(', ')} }`);
  if (call.body) options.push(`body: ${javascriptValue(call.body)}`);
  if (call.method === 'POST') options.push(`headers: { 'idempotency-key': randomUUID() }`);
  const javascript = `const { data, error } = await simcode.${call.method}('${call.path}'${
    options.length > 0 ? `, {\n  ${options.join(',\n  ')},\n}` : ''
  });`;

  const pythonArguments = [`f"{API}${path}"`];
  if (call.query) pythonArguments.push(`params=${pythonValue(call.query)}`);
  if (call.body) pythonArguments.push(`json=${pythonValue(call.body)}`);
  if (call.method === 'POST') pythonArguments.push('headers={"Idempotency-Key": str(uuid.uuid4())}');
  pythonArguments.push(`timeout=${call.timeoutSeconds ?? 30}`);
  const python = `answer = session.${call.method.toLowerCase()}(\n    ${pythonArguments.join(',\n    ')},\n)\nprint(answer.status_code, answer.json())`;
  return { curl, javascript, python };
}

/** The per-key event stream, read in each language. */
export function streamExamples(origin: string): Examples {
  return {
    curl: `curl -N "${origin}/api/v1/events" -H "Authorization: Bearer $SIMCODE_KEY"
# event: order
# data: {"order_id":42,"code":"482913"}`,
    javascript: `// The generated client reads JSON; the stream is read with fetch.
const stream = await fetch('${origin}/api/v1/events', {
  headers: { authorization: \`Bearer \${process.env.SIMCODE_KEY}\` },
});
const decoder = stream.body.pipeThrough(new TextDecoderStream());
let buffered = '';
for await (const chunk of decoder) {
  buffered += chunk;
  const messages = buffered.split('\\n\\n');
  buffered = messages.pop();
  for (const message of messages) {
    const event = /^event: (.+)$/m.exec(message)?.[1];
    const data = /^data: (.+)$/m.exec(message)?.[1];
    if (event === 'order' && data) console.log(JSON.parse(data)); // { order_id, code? }
  }
}`,
    python: `import json

with session.get(f"{API}/events", stream=True, timeout=(10, 60)) as stream:
    event = None
    for line in stream.iter_lines(decode_unicode=True):
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "order":
            print(json.loads(line[6:]))  # {"order_id": 42, "code": "482913"}`,
  };
}

/** A problem details answer, as `/api/v1` writes every refusal. */
export const problemExample = `HTTP/1.1 409 Conflict
Content-Type: application/problem+json; charset=utf-8

{
  "type": "/docs/api#error-price_above_guard",
  "title": "Conflict",
  "status": 409,
  "detail": "This costs $0.95, above the $0.80 this API key may spend on one purchase.",
  "success": false,
  "error": "This costs $0.95, above the $0.80 this API key may spend on one purchase.",
  "code": "price_above_guard"
}`;

export const mcpTools = [
  'list_offers',
  'buy_number',
  'wait_for_code',
  'get_order',
  'request_another_sms',
  'cancel_order',
  'finish_order',
  'get_balance',
] as const;

export function mcpConfigs(origin: string) {
  return {
    // Claude Desktop starts local (stdio) servers: mcp-remote bridges to the HTTP endpoint with the header.
    claudeDesktop: `{
  "mcpServers": {
    "simcode": {
      "command": "npx",
      "args": ["-y", "mcp-remote", "${origin}/mcp", "--header", "Authorization:\${SIMCODE_AUTH}"],
      "env": { "SIMCODE_AUTH": "Bearer sc_..." }
    }
  }
}`,
    sdk: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('${origin}/mcp'), {
  requestInit: { headers: { authorization: \`Bearer \${process.env.SIMCODE_KEY}\` } },
}));
const offers = await client.callTool({ name: 'list_offers', arguments: { country: 'Israel', service: 'Telegram' } });`,
    generic: `{
  "mcpServers": {
    "simcode": {
      "type": "http",
      "url": "${origin}/mcp",
      "headers": { "Authorization": "Bearer sc_..." }
    }
  }
}`,
  };
}
