import { type Incident, incidentPhaseMessages } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { componentName, localized } from './labels';

/** Incidents with their updates, newest update last; each has an anchor the feed links to. */
export function IncidentList({ incidents }: { incidents: readonly Incident[] }) {
  const { t } = useTranslation('status');
  return (
    <ol className="flex flex-col gap-4">
      {incidents.map((incident) => (
        <li
          key={incident.id}
          id={`incident-${incident.id}`}
          className="rounded-2xl border bg-white p-4 break-words sm:p-5"
        >
          <h3 className="font-semibold text-slate-900">{localized(incident.title)}</h3>
          <p className="mt-1 text-sm text-slate-600">
            {/* A no-break space after each separator keeps it with what follows, never ending a line. */}
            {componentName({ id: incident.component, name: incident.component_name })} ·{'\u00a0'}
            {t(incident.origin === 'automatic' ? 'incident.automatic' : 'incident.manual')} ·{'\u00a0'}
            {incident.resolved_at
              ? t('incident.between', {
                  from: formatDateTime(incident.opened_at),
                  to: formatDateTime(incident.resolved_at),
                })
              : t('incident.since', { from: formatDateTime(incident.opened_at) })}
          </p>
          <ol className="mt-3 flex flex-col gap-2 border-l-2 border-slate-200 pl-3">
            {incident.updates.map((update) => (
              <li key={`${update.at}-${update.phase}`} className="text-sm">
                <p className="font-medium text-slate-900">
                  {incidentPhaseMessages[update.phase]}{' '}
                  <time dateTime={update.at} className="font-normal text-slate-600">
                    {formatDateTime(update.at)}
                  </time>
                </p>
                <p className="text-slate-700">{localized(update.text)}</p>
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}
