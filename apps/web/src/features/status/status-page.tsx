import { type StatusAnswer, statusFeedPath, statusPaths } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicPageHeader } from '@/components/public-page-header';
import { currentLanguage, publicPath } from '@/i18n';
import { publicPageMeta } from '@/lib/page-meta';
import { useSession } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useOpenAnswer } from '@/lib/use-open-answer';
import { cn } from '@/lib/utils';
import { IncidentList } from './incident-list';
import { componentName, percentText } from './labels';
import { SubscriptionToggle } from './subscription';
import { UptimeBars } from './uptime-bars';

const STATE_CLASS = {
  operational: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  down: 'bg-red-50 text-red-800 ring-red-200',
  unknown: 'bg-slate-100 text-slate-700 ring-slate-200',
  incident: 'bg-amber-50 text-amber-900 ring-amber-200',
} as const;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-xl font-bold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Delivery({ delivery }: { delivery: StatusAnswer['delivery'] }) {
  const { t } = useTranslation('status');
  const rate = (figures: StatusAnswer['delivery']['normal']) =>
    figures.delivery_rate === null
      ? t('delivery.few', { count: figures.settled })
      : percentText(figures.delivery_rate);
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <div className="rounded-2xl border bg-white p-4">
        <dt className="text-sm text-slate-600">{t('delivery.lastHour')}</dt>
        <dd className="text-2xl font-bold text-slate-900">{rate(delivery.last_hour)}</dd>
      </div>
      <div className="rounded-2xl border bg-white p-4">
        <dt className="text-sm text-slate-600">{t('delivery.normal')}</dt>
        <dd className="text-2xl font-bold text-slate-900">{rate(delivery.normal)}</dd>
      </div>
    </dl>
  );
}

/** `/status`: the state of the site and its suppliers, 90 days of uptime, incidents, and how to follow them. */
export function StatusPage() {
  useDocumentTitle(publicPageMeta('/status').title);
  const { t } = useTranslation('status');
  const { isSignedIn } = useSession();
  const { data, failed } = useOpenAnswer<StatusAnswer>(statusPaths.api);
  const down = data?.components.filter((component) => component.state === 'down') ?? [];
  const affected = [
    ...new Set(
      data?.open_incidents.map((incident) =>
        componentName({ id: incident.component, name: incident.component_name }),
      ),
    ),
  ];

  return (
    <main className="flex-1">
      <PublicPageHeader title={t('title')} intro={t('intro')} width="4xl" />
      <div className="mx-auto flex max-w-4xl flex-col gap-10 px-4 pb-20 sm:px-6">
        <p
          aria-live="polite"
          className={cn(
            'rounded-2xl p-4 font-semibold ring-1',
            !data
              ? STATE_CLASS.unknown
              : down.length > 0
                ? STATE_CLASS.down
                : affected.length > 0
                  ? STATE_CLASS.incident
                  : STATE_CLASS.operational,
          )}
        >
          {failed
            ? t('failed')
            : !data
              ? t('loading')
              : down.length > 0
                ? t('summary.down', { names: down.map(componentName).join(', ') })
                : affected.length > 0
                  ? t('summary.incident', { names: affected.join(', ') })
                  : t('summary.operational')}
        </p>
        {data && data.open_incidents.length > 0 && (
          <Section title={t('openIncidents')}>
            <IncidentList incidents={data.open_incidents} />
          </Section>
        )}
        {data && (
          <Section title={t('components.title')}>
            <ul className="flex flex-col gap-5">
              {data.components.map((component) => (
                <li key={component.id} className="flex flex-col gap-2">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 className="font-semibold text-slate-900">{componentName(component)}</h3>
                    <span
                      className={cn(
                        'rounded-full px-2.5 py-0.5 text-sm font-medium ring-1',
                        STATE_CLASS[component.state],
                      )}
                    >
                      {t(`states.${component.state}`)}
                    </span>
                  </div>
                  <UptimeBars component={component} name={componentName(component)} />
                </li>
              ))}
            </ul>
          </Section>
        )}
        {data && (
          <Section title={t('delivery.title')}>
            <p className="text-sm text-slate-600">
              {t('delivery.explain')}{' '}
              <Link
                to={publicPath('/stats')}
                className="font-medium text-primary underline underline-offset-2"
              >
                {t('delivery.index')}
              </Link>
            </p>
            <Delivery delivery={data.delivery} />
          </Section>
        )}
        {data && (
          <Section title={t('pastIncidents')}>
            {data.past_incidents.length > 0 ? (
              <IncidentList incidents={data.past_incidents} />
            ) : (
              <p className="text-slate-600">{t('noIncidents')}</p>
            )}
          </Section>
        )}
        <Section title={t('subscribe.title')}>
          <p className="text-sm text-slate-700">
            <a
              href={statusFeedPath(currentLanguage())}
              type="application/atom+xml"
              className="font-medium text-primary underline underline-offset-2"
            >
              {t('subscribe.feed')}
            </a>
          </p>
          {data && isSignedIn ? (
            <SubscriptionToggle />
          ) : (
            <p className="text-sm text-slate-700">
              <Link
                to={publicPath('/login')}
                className="font-medium text-primary underline underline-offset-2"
              >
                {t('subscribe.signIn')}
              </Link>
            </p>
          )}
        </Section>
      </div>
    </main>
  );
}
