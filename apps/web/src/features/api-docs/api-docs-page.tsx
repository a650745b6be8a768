import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/use-document-title';
import { activationActions, errorTokens, type ProtocolAction, rentActions } from './actions';

/** Every text of the documentation page that is not an example, together so they can move to a catalogue. */
const texts = {
  title: 'Reseller API',
  intro:
    'Point any SMS-Activate client, bot or tool at SimCode: it speaks the same handler_api.php protocol, against your balance and your orders. Create a key on the API page of your dashboard.',
  apiPage: 'Create an API key',
  base: 'Base URL and authentication',
  baseBody:
    'Send GET or POST (query string or form body) to the URL below with api_key and action. Prices are in US dollars; ids are SimCode order ids; countries and services use SMS-Activate’s ids (16 = United Kingdom, 187 = USA; tg = Telegram).',
  activations: 'One-time numbers',
  rents: 'Rentals',
  errors: 'Error answers',
  example: 'Example answer',
  webhooks: 'Webhooks',
  webhooksBody:
    'Give a key a callback URL (HTTPS, public address) and each SMS on its orders is POSTed there as JSON, like SMS-Activate’s webhook: {"activationId","service","text","code","country","receivedAt"} (rents: {"rentId","sms":{"phoneFrom","text","date"}}). The X-SimCode-Signature header is t=<unix time>,v1=<HMAC-SHA256 of "<t>.<body>" with the key’s webhook secret>. Answer with a 2xx status; other answers are retried with growing intervals for 24 hours. Refuse timestamps older than a few minutes to stop replays.',
  mcp: 'MCP server for AI agents',
  mcpBody:
    'SimCode serves the Model Context Protocol over streamable HTTP at /mcp, authenticated with the same key (Authorization: Bearer <key> or x-api-key). Tools: list_offers, buy_number (with an idempotency_key, within the key’s caps), wait_for_code, request_another_sms, cancel_order, finish_order, get_balance.',
} as const;

const origin = typeof window === 'undefined' ? 'https://simcode.example' : window.location.origin;
const endpoint = `${origin}/stubs/handler_api.php`;

function curlOf(action: ProtocolAction): string {
  const query = new URLSearchParams({ api_key: 'YOUR_KEY', action: action.name, ...action.params });
  return `curl "${endpoint}?${query.toString().replace('YOUR_KEY', '$SIMCODE_KEY')}"`;
}

function javascriptOf(action: ProtocolAction): string {
  const params = Object.entries({ action: action.name, ...action.params })
    .map(([name, value]) => `${name}: '${value}'`)
    .join(', ');
  return `const query = new URLSearchParams({ api_key: process.env.SIMCODE_KEY, ${params} });
const answer = await (await fetch(\`${endpoint}?\${query}\`)).text();`;
}

function Code({ children, label }: { children: string; label: string }) {
  return (
    // Wrapped, not scrolled: long URLs stay readable on a phone without a keyboard-unreachable scroll area.
    <pre
      title={label}
      className="rounded-md bg-slate-950 px-3 py-2 text-xs leading-relaxed break-all whitespace-pre-wrap text-slate-100"
    >
      <code>{children}</code>
    </pre>
  );
}

function ActionList({ actions }: { actions: ProtocolAction[] }) {
  return (
    <div className="flex flex-col gap-6">
      {actions.map((action) => (
        <article key={action.name} id={action.name} className="min-w-0 scroll-mt-24">
          <h3 className="font-mono text-base font-semibold text-slate-900">{action.name}</h3>
          <p className="mt-1 text-sm break-words text-slate-600">{action.summary}</p>
          <div className="mt-2 flex flex-col gap-2">
            <Code label={`curl example of ${action.name}`}>{curlOf(action)}</Code>
            <Code label={`JavaScript example of ${action.name}`}>{javascriptOf(action)}</Code>
            <p className="text-xs font-medium text-slate-500">{texts.example}</p>
            <Code label={`Answer of ${action.name}`}>{action.answer}</Code>
          </div>
        </article>
      ))}
    </div>
  );
}

export function ApiDocsPage() {
  useDocumentTitle(texts.title);
  return (
    <main className="flex-1 px-4 pt-28 pb-16 sm:px-6 sm:pt-32">
      <div className="mx-auto flex max-w-3xl flex-col gap-10">
        <header>
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{texts.title}</h1>
          <p className="mt-3 break-words text-slate-600">{texts.intro}</p>
          <Link to="/dashboard/api" className="mt-3 inline-block font-medium text-primary underline">
            {texts.apiPage}
          </Link>
        </header>
        <section>
          <h2 className="mb-2 text-xl font-bold">{texts.base}</h2>
          <p className="mb-2 text-sm break-words text-slate-600">{texts.baseBody}</p>
          <Code label="Base URL">{endpoint}</Code>
        </section>
        <section>
          <h2 className="mb-4 text-xl font-bold">{texts.activations}</h2>
          <ActionList actions={activationActions} />
        </section>
        <section>
          <h2 className="mb-4 text-xl font-bold">{texts.rents}</h2>
          <ActionList actions={rentActions} />
        </section>
        <section>
          <h2 className="mb-2 text-xl font-bold">{texts.errors}</h2>
          <dl className="flex flex-col gap-2 text-sm">
            {errorTokens.map(([token, meaning]) => (
              <div key={token} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
                <dt className="shrink-0 font-mono font-semibold break-all sm:w-56">{token}</dt>
                <dd className="text-slate-600">{meaning}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section>
          <h2 className="mb-2 text-xl font-bold">{texts.webhooks}</h2>
          <p className="mb-2 text-sm break-words text-slate-600">{texts.webhooksBody}</p>
          <Code label="Verifying a webhook in JavaScript">{`import { createHmac, timingSafeEqual } from 'node:crypto';
const [, t, v1] = /^t=(\\d+),v1=([0-9a-f]+)$/.exec(request.headers['x-simcode-signature']);
const expected = createHmac('sha256', WEBHOOK_SECRET).update(\`\${t}.\${rawBody}\`).digest('hex');
const valid = timingSafeEqual(Buffer.from(v1), Buffer.from(expected)) && Date.now() / 1000 - t < 300;`}</Code>
        </section>
        <section>
          <h2 className="mb-2 text-xl font-bold">{texts.mcp}</h2>
          <p className="mb-2 text-sm break-words text-slate-600">{texts.mcpBody}</p>
          <Code label="Connecting with the MCP TypeScript SDK">{`import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('${origin}/mcp'), {
  requestInit: { headers: { authorization: \`Bearer \${process.env.SIMCODE_KEY}\` } },
}));
const offers = await client.callTool({ name: 'list_offers', arguments: { country: 'GB', service: 'tg' } });`}</Code>
        </section>
      </div>
    </main>
  );
}
