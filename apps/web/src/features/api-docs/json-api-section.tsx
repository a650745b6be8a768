import { errorCatalogue } from '@simcode/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeBlock, ExampleLanguageProvider, ExampleTabs } from './code-block';
import {
  callExamples,
  jsonCalls,
  mcpConfigs,
  mcpTools,
  problemExample,
  setupExamples,
  streamExamples,
} from './json-api';

function Topic({
  id,
  title,
  body,
  children,
}: {
  id: string;
  title: string;
  body: string;
  children?: ReactNode;
}) {
  return (
    <section id={id} className="flex min-w-0 scroll-mt-24 flex-col gap-2">
      <h3 className="text-base font-semibold text-slate-900">{title}</h3>
      <p className="text-sm break-words text-slate-600">{body}</p>
      {children}
    </section>
  );
}

/** The JSON API `/api/v1`: its rules, each main call in curl, JavaScript and Python, and the MCP quick start. */
export function JsonApiSection({ origin }: { origin: string }) {
  const { t } = useTranslation('apiDocs');
  const { t: say } = useTranslation('messages');
  const mcp = mcpConfigs(origin);
  return (
    <ExampleLanguageProvider>
      <section id="json-api" className="flex min-w-0 scroll-mt-24 flex-col gap-6">
        <div>
          <h2 className="mb-2 text-xl font-bold">{t('json.title')}</h2>
          <p className="text-sm break-words text-slate-600">{t('json.intro')}</p>
        </div>
        <Topic id="json-auth" title={t('json.auth')} body={t('json.authBody')}>
          <ExampleTabs examples={setupExamples(origin)} label={t('json.auth')} />
        </Topic>
        <Topic id="json-idempotency" title={t('json.idempotency')} body={t('json.idempotencyBody')} />
        <Topic id="json-cursors" title={t('json.cursors')} body={t('json.cursorsBody')} />
        <Topic id="json-guards" title={t('json.guards')} body={t('json.guardsBody')} />
        <Topic id="json-push" title={t('json.push')} body={t('json.pushBody')}>
          <ExampleTabs examples={streamExamples(origin)} label={t('json.stream')} />
        </Topic>

        <div className="flex flex-col gap-6">
          <h3 className="text-lg font-bold">{t('json.calls')}</h3>
          {jsonCalls.map((call) => (
            <article key={call.id} id={`v1-${call.id}`} className="flex min-w-0 scroll-mt-24 flex-col gap-2">
              {/* i18n-ignore: a method and a path read the same in every language */}
              <h4 className="font-mono text-sm font-semibold break-words text-slate-900">{`${call.method} /api/v1${call.path}`}</h4>
              <p className="text-sm break-words text-slate-600">{t(`json.call.${call.id}`)}</p>
              <ExampleTabs examples={callExamples(origin, call)} label={`${call.method} ${call.path}`} />
            </article>
          ))}
        </div>

        <Topic id="json-problems" title={t('json.problems')} body={t('json.problemsBody')}>
          <CodeBlock code={problemExample} label={t('json.problems')} />
          <dl className="mt-2 flex flex-col gap-2 text-sm">
            {Object.entries(errorCatalogue).map(([code, entry]) => (
              <div
                key={code}
                id={`error-${code}`}
                className="flex scroll-mt-24 flex-col gap-0.5 sm:flex-row sm:gap-3"
              >
                <dt className="shrink-0 font-mono font-semibold break-words sm:w-64">
                  {code} <span className="font-normal text-slate-500">{entry.status}</span>
                </dt>
                <dd className="text-slate-600">{say(entry.text, 'values' in entry ? entry.values : {})}</dd>
              </div>
            ))}
          </dl>
        </Topic>

        <Topic id="mcp" title={t('json.mcp')} body={t('json.mcpBody', { url: `${origin}/mcp` })}>
          <p className="text-sm font-medium text-slate-700">{t('json.mcpClaude')}</p>
          <CodeBlock code={mcp.claudeDesktop} label={t('json.mcpClaude')} />
          <p className="text-sm font-medium text-slate-700">{t('json.mcpGeneric')}</p>
          <CodeBlock code={mcp.generic} label={t('json.mcpGeneric')} />
          <p className="text-sm font-medium text-slate-700">{t('json.mcpSdk')}</p>
          <CodeBlock code={mcp.sdk} label={t('json.mcpSdk')} />
          <p className="text-sm font-medium text-slate-700">{t('json.mcpTools')}</p>
          <dl className="flex flex-col gap-2 text-sm">
            {mcpTools.map((tool) => (
              <div key={tool} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
                <dt className="shrink-0 font-mono font-semibold sm:w-48">{tool}</dt>
                <dd className="text-slate-600">{t(`json.tool.${tool}`)}</dd>
              </div>
            ))}
          </dl>
        </Topic>
      </section>
    </ExampleLanguageProvider>
  );
}
