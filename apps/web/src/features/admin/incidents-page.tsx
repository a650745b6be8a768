import {
  INCIDENT_PHASES,
  type Incident,
  incidentPhaseMessages,
  LANGUAGES,
  type LocalizedText,
  statusPaths,
} from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '@/components/date-time';
import { FormError } from '@/components/form-error';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { incidentsQuery, useIncidentAction } from './incidents-api';
import { ListState } from './parts';

const EMPTY: LocalizedText = { en: '', ru: '', zh: '' };
const SELECT_CLASS = 'h-9 w-full rounded-md border bg-transparent px-3 text-sm';

/** A text in each language of the site, side by side from the tablet width on. */
function LocalizedFields({
  label,
  value,
  onChange,
  multiline,
}: {
  label: string;
  value: LocalizedText;
  onChange: (next: LocalizedText) => void;
  multiline?: boolean;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  return (
    <fieldset className="grid min-w-0 grid-cols-1 gap-3 md:grid-cols-3">
      <legend className="mb-2 text-sm font-medium">{label}</legend>
      {LANGUAGES.map((language) => {
        const props = {
          id: `${id}-${language}`,
          value: value[language],
          required: true,
          onChange: (event: { target: { value: string } }) =>
            onChange({ ...value, [language]: event.target.value }),
        };
        return (
          <Field key={language} id={props.id} label={t(`incidents.language.${language}`)}>
            {multiline ? <Textarea rows={3} {...props} /> : <Input {...props} />}
          </Field>
        );
      })}
    </fieldset>
  );
}

/** One action's form: its own fields above, then the texts in each language and the reason. */
function ActionForm({
  submitLabel,
  path,
  extra,
  fields,
  textLabel,
  onDone,
}: {
  submitLabel: string;
  path: string;
  extra: Record<string, unknown>;
  fields?: React.ReactNode;
  textLabel: string;
  onDone?: () => void;
}) {
  const { t } = useTranslation('admin');
  const reasonId = useId();
  const action = useIncidentAction();
  const [text, setText] = useState(EMPTY);
  const [reason, setReason] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.mutateAsync({ path, body: { ...extra, text, reason } });
    setText(EMPTY);
    setReason('');
    onDone?.();
  };
  return (
    <form onSubmit={(event) => submit(event).catch(() => undefined)} className="flex min-w-0 flex-col gap-3">
      {fields}
      <LocalizedFields label={textLabel} value={text} onChange={setText} multiline />
      <Field id={reasonId} label={t('incidents.reason')}>
        <Input
          id={reasonId}
          value={reason}
          required
          minLength={3}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field>
      {action.isError && <FormError id={`${reasonId}-error`}>{errorMessage(action.error)}</FormError>}
      <div>
        <Button type="submit" disabled={action.isPending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function OpenIncidentForm({ components }: { components: { id: string; name: string }[] }) {
  const { t } = useTranslation('admin');
  const componentId = useId();
  const [component, setComponent] = useState(components[0]?.id ?? '');
  const [title, setTitle] = useState(EMPTY);
  return (
    <Card className="flex min-w-0 flex-col gap-3 p-4 sm:p-5">
      <h2 className="text-lg font-semibold">{t('incidents.open')}</h2>
      <ActionForm
        submitLabel={t('incidents.openButton')}
        path={statusPaths.adminIncidents}
        extra={{ component, title }}
        textLabel={t('incidents.firstUpdate')}
        onDone={() => setTitle(EMPTY)}
        fields={
          <>
            <Field id={componentId} label={t('incidents.component')}>
              <select
                id={componentId}
                className={SELECT_CLASS}
                value={component}
                onChange={(event) => setComponent(event.target.value)}
              >
                {components.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name}
                  </option>
                ))}
              </select>
            </Field>
            <LocalizedFields label={t('incidents.title')} value={title} onChange={setTitle} />
          </>
        }
      />
    </Card>
  );
}

function OpenIncidentActions({ incident }: { incident: Incident }) {
  const { t } = useTranslation('admin');
  const phaseId = useId();
  const [phase, setPhase] = useState<(typeof INCIDENT_PHASES)[number]>('identified');
  return (
    <div className="grid min-w-0 grid-cols-1 gap-6 border-t pt-4">
      <ActionForm
        submitLabel={t('incidents.addUpdate')}
        path={`${statusPaths.adminIncident(incident.id)}/updates`}
        extra={{ phase }}
        textLabel={t('incidents.update')}
        fields={
          <Field id={phaseId} label={t('incidents.phase')}>
            <select
              id={phaseId}
              className={SELECT_CLASS}
              value={phase}
              onChange={(event) => setPhase(event.target.value as typeof phase)}
            >
              {INCIDENT_PHASES.filter((option) => option !== 'resolved').map((option) => (
                <option key={option} value={option}>
                  {incidentPhaseMessages[option]}
                </option>
              ))}
            </select>
          </Field>
        }
      />
      <ActionForm
        submitLabel={t('incidents.resolve')}
        path={`${statusPaths.adminIncident(incident.id)}/resolve`}
        extra={{}}
        textLabel={t('incidents.finalUpdate')}
      />
    </div>
  );
}

function IncidentCard({ incident }: { incident: Incident }) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  return (
    <Card className="flex min-w-0 flex-col gap-3 p-4 sm:p-5" role="region" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="min-w-0 text-lg font-semibold break-words">
          {incident.title.en}
        </h2>
        <p className="flex flex-wrap gap-1.5">
          <Badge variant="muted">{incident.component_name}</Badge>
          <Badge variant={incident.state === 'open' ? 'destructive' : 'success'}>
            {t(`incidents.states.${incident.state}`)}
          </Badge>
          <Badge variant="info">{t(`incidents.origins.${incident.origin}`)}</Badge>
        </p>
      </div>
      <ol className="flex flex-col gap-2 text-sm">
        {incident.updates.map((update) => (
          <li key={`${update.at}-${update.phase}`} className="min-w-0 break-words">
            <span className="font-medium">{incidentPhaseMessages[update.phase]}</span>{' '}
            <span className="text-muted-foreground">
              <DateTime value={update.at} />
            </span>
            <span className="block">{update.text.en}</span>
          </li>
        ))}
      </ol>
      {incident.state === 'open' && <OpenIncidentActions incident={incident} />}
    </Card>
  );
}

/** `/admin/incidents`: the status page's incidents; open one, post updates, close it, in every language. */
export function IncidentsPage() {
  const { t } = useTranslation('admin');
  const incidents = useQuery(incidentsQuery);
  return (
    <>
      <PageHeader title={t('nav.incidents')} description={t('incidents.description')} />
      <div className="flex min-w-0 flex-col gap-4 lg:gap-6">
        {incidents.data && <OpenIncidentForm components={incidents.data.components} />}
        <ListState
          query={incidents}
          empty={incidents.data?.incidents.length === 0}
          emptyText={t('incidents.none')}
        />
        {incidents.data?.incidents.map((incident) => (
          <IncidentCard key={incident.id} incident={incident} />
        ))}
      </div>
    </>
  );
}
