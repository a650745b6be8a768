import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/use-document-title';
import { activationActions, errorName, errorTokens, type ProtocolAction, rentActions } from './actions';
import { CodeBlock } from './code-block';
import { JsonApiSection } from './json-api-section';

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

function ActionList({ actions }: { actions: ProtocolAction[] }) {
  const { t } = useTranslation('apiDocs');
  return (
    <div className="flex flex-col gap-6">
      {actions.map((action) => (
        <article key={action.name} id={action.name} className="min-w-0 scroll-mt-24">
          <h3 className="font-mono text-base font-semibold text-slate-900">{action.name}</h3>
          <p className="mt-1 text-sm break-words text-slate-600">{t(`actions.${action.name}`)}</p>
          <div className="mt-2 flex flex-col gap-2">
            <CodeBlock label={t('code.curl', { action: action.name })} code={curlOf(action)} />
            <CodeBlock label={t('code.javascript', { action: action.name })} code={javascriptOf(action)} />
            <p className="text-xs font-medium text-slate-500">{t('example')}</p>
            <CodeBlock label={t('code.answer', { action: action.name })} code={action.response} />
          </div>
        </article>
      ))}
    </div>
  );
}

export function ApiDocsPage() {
  const { t } = useTranslation('apiDocs');
  useDocumentTitle(t('title'));
  return (
    <main className="flex-1 px-4 pt-28 pb-16 sm:px-6 sm:pt-32">
      <div className="mx-auto flex max-w-3xl flex-col gap-10">
        <header>
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{t('title')}</h1>
          <p className="mt-3 break-words text-slate-600">{t('intro')}</p>
          <Link to="/dashboard/api" className="mt-3 inline-block font-medium text-primary underline">
            {t('apiPage')}
          </Link>
        </header>
        <nav aria-label={t('contents')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <a href="#protocol" className="font-medium text-primary underline">
            {t('protocol')}
          </a>
          <a href="#json-api" className="font-medium text-primary underline">
            {t('json.title')}
          </a>
          <a href="#mcp" className="font-medium text-primary underline">
            {t('json.mcp')}
          </a>
        </nav>
        <section id="protocol" className="scroll-mt-24">
          <h2 className="mb-2 text-xl font-bold">{t('base')}</h2>
          <p className="mb-2 text-sm break-words text-slate-600">{t('baseBody')}</p>
          <CodeBlock label={t('code.baseUrl')} code={endpoint} />
        </section>
        <section>
          <h2 className="mb-4 text-xl font-bold">{t('activations')}</h2>
          <ActionList actions={activationActions} />
        </section>
        <section>
          <h2 className="mb-4 text-xl font-bold">{t('rents')}</h2>
          <ActionList actions={rentActions} />
        </section>
        <section>
          <h2 className="mb-2 text-xl font-bold">{t('errors.title')}</h2>
          <dl className="flex flex-col gap-2 text-sm">
            {errorTokens.map((token) => (
              <div key={token} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
                <dt className="shrink-0 font-mono font-semibold break-all sm:w-56">{token}</dt>
                <dd className="text-slate-600">{t(`errors.${errorName(token)}`)}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section>
          <h2 className="mb-2 text-xl font-bold">{t('webhooks')}</h2>
          <p className="mb-2 text-sm break-words text-slate-600">{t('webhooksBody')}</p>
          <CodeBlock
            label={t('code.webhook')}
            // i18n-ignore: a code sample reads the same in every language
            code={`import { createHmac, timingSafeEqual } from 'node:crypto';
const [, t, v1] = /^t=(\\d+),v1=([0-9a-f]+)$/.exec(request.headers['x-simcode-signature']);
const expected = createHmac('sha256', WEBHOOK_SECRET).update(\`\${t}.\${rawBody}\`).digest('hex');
const valid = timingSafeEqual(Buffer.from(v1), Buffer.from(expected)) && Date.now() / 1000 - t < 300;`}
          />
        </section>
        <JsonApiSection origin={origin} />
      </div>
    </main>
  );
}
