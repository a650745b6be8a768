import type { AlertChannelCreate, AlertSettingsView, AlertsResponse } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { EmptyText } from '@/components/empty-text';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import {
  alertsQuery,
  useAddAlertChannel,
  useRemoveAlertChannel,
  useSaveAlertSettings,
  useSwitchAlertChannel,
} from './api';
import { LoadError } from './parts';

type Kind = AlertChannelCreate['kind'];
const KINDS: readonly Kind[] = ['email', 'webhook', 'telegram'];
const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function Balances({ balances }: { balances: AlertsResponse['balances'] }) {
  const { t } = useTranslation('admin');
  if (balances.length === 0) return <EmptyText>{t('operatorAlerts.noBalances')}</EmptyText>;
  return (
    <Table aria-label={t('operatorAlerts.balances')}>
      <TableHeader>
        <TableRow>
          <TableHead>{t('operatorAlerts.supplier')}</TableHead>
          <TableHead>{t('operatorAlerts.balance')}</TableHead>
          <TableHead>{t('operatorAlerts.spendPerHour')}</TableHead>
          <TableHead>{t('operatorAlerts.hoursLeft')}</TableHead>
          <TableHead>{t('operatorAlerts.routing')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {balances.map((row) => (
          <TableRow key={row.provider}>
            <TableCell>{row.provider}</TableCell>
            <TableCell>
              <Money dollars={row.balance_cents / 100} />
            </TableCell>
            <TableCell>
              {row.spend_cents_per_hour === null ? '—' : <Money dollars={row.spend_cents_per_hour / 100} />}
            </TableCell>
            <TableCell>{row.hours_left ?? '—'}</TableCell>
            <TableCell>
              <Badge variant={row.in_routing ? 'success' : 'destructive'}>
                {row.in_routing ? t('operatorAlerts.inRouting') : t('operatorAlerts.outOfRouting')}
              </Badge>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function AlertList({ alerts }: { alerts: AlertsResponse['alerts'] }) {
  const { t } = useTranslation('admin');
  if (alerts.length === 0) return <EmptyText>{t('operatorAlerts.noAlerts')}</EmptyText>;
  return (
    <Table aria-label={t('operatorAlerts.alerts')}>
      <TableHeader>
        <TableRow>
          <TableHead>{t('operatorAlerts.state')}</TableHead>
          <TableHead>{t('operatorAlerts.what')}</TableHead>
          <TableHead>{t('operatorAlerts.since')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {alerts.map((alert) => (
          <TableRow key={alert.id}>
            <TableCell>
              <Badge variant={alert.resolved_at ? 'muted' : 'warning'}>
                {alert.resolved_at ? t('operatorAlerts.resolved') : t('operatorAlerts.open')}
              </Badge>
            </TableCell>
            <TableCell className="min-w-0 whitespace-normal break-words">
              <Link to={alert.link} className={linkClass}>
                {alert.summary}
              </Link>
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {utc(alert.since)}
              {alert.resolved_at && ` – ${utc(alert.resolved_at)}`}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function AddChannel() {
  const { t } = useTranslation('admin');
  const ids = { kind: useId(), name: useId(), target: useId(), token: useId(), base: useId() };
  const [kind, setKind] = useState<Kind>('email');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [token, setToken] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const add = useAddAlertChannel();

  function request(): AlertChannelCreate {
    if (kind === 'email')
      return {
        kind,
        name,
        addresses: target
          .split(/[\s,;]+/)
          .map((address) => address.trim())
          .filter(Boolean),
      };
    if (kind === 'webhook') return { kind, name, url: target };
    return { kind, name, chat_id: target, bot_token: token, ...(baseUrl ? { api_base_url: baseUrl } : {}) };
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    try {
      const answer = await add.mutateAsync(request());
      setSecret(answer.secret ?? null);
      setName('');
      setTarget('');
      setToken('');
      setBaseUrl('');
      toast.success(t('operatorAlerts.channelAdded'));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  const targetLabel =
    kind === 'email'
      ? t('operatorAlerts.addresses')
      : kind === 'webhook'
        ? t('operatorAlerts.webhookUrl')
        : t('operatorAlerts.chatId');
  return (
    <Card className="p-4">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
        <Field id={ids.kind} label={t('operatorAlerts.kind')}>
          <Select value={kind} onValueChange={(value) => setKind(value as Kind)}>
            <SelectTrigger id={ids.kind}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {KINDS.map((each) => (
                <SelectItem key={each} value={each}>
                  {t(`operatorAlerts.kinds.${each}`)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </Field>
        <Field id={ids.name} label={t('operatorAlerts.name')}>
          <Input
            id={ids.name}
            value={name}
            required
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id={ids.target} label={targetLabel}>
          <Input id={ids.target} value={target} required onChange={(e) => setTarget(e.target.value)} />
        </Field>
        {kind === 'telegram' && (
          <>
            <Field id={ids.token} label={t('operatorAlerts.botToken')}>
              <Input
                id={ids.token}
                type="password"
                autoComplete="off"
                value={token}
                required
                onChange={(e) => setToken(e.target.value)}
              />
            </Field>
            <Field
              id={ids.base}
              label={t('operatorAlerts.apiBaseUrl')}
              below={t('operatorAlerts.apiBaseUrlHint')}
            >
              <Input id={ids.base} value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
            </Field>
          </>
        )}
        <div className="flex items-end">
          <Button type="submit" disabled={add.isPending}>
            {t('operatorAlerts.addChannel')}
          </Button>
        </div>
      </form>
      {secret && (
        <div role="status" className="mt-4 flex min-w-0 flex-col gap-1">
          <p className="text-sm">{t('operatorAlerts.secretOnce')}</p>
          <code className="break-all rounded bg-muted p-2 text-sm">{secret}</code>
        </div>
      )}
    </Card>
  );
}

function Channels({ channels }: { channels: AlertsResponse['channels'] }) {
  const { t } = useTranslation('admin');
  const switchChannel = useSwitchAlertChannel();
  const remove = useRemoveAlertChannel();
  const act = (work: () => Promise<unknown>) => async () => {
    try {
      await work();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <div className="flex min-w-0 flex-col gap-3">
      {channels.length === 0 ? (
        <EmptyText>{t('operatorAlerts.noChannels')}</EmptyText>
      ) : (
        <Table aria-label={t('operatorAlerts.channels')}>
          <TableHeader>
            <TableRow>
              <TableHead>{t('operatorAlerts.name')}</TableHead>
              <TableHead>{t('operatorAlerts.kind')}</TableHead>
              <TableHead>{t('operatorAlerts.target')}</TableHead>
              <TableHead>{t('operatorAlerts.actions')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {channels.map((channel) => (
              <TableRow key={channel.id}>
                <TableCell>{channel.name}</TableCell>
                <TableCell>{t(`operatorAlerts.kinds.${channel.kind}`)}</TableCell>
                <TableCell className="whitespace-normal break-all">
                  {channel.addresses?.join(', ') ?? channel.url ?? channel.chat_id}
                </TableCell>
                <TableCell>
                  <div className="flex flex-wrap gap-1.5">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={act(() =>
                        switchChannel.mutateAsync({ id: channel.id, enabled: !channel.enabled }),
                      )}
                    >
                      {channel.enabled ? t('operatorAlerts.disable') : t('operatorAlerts.enable')}
                    </Button>
                    <Button
                      size="sm"
                      variant="destructive"
                      onClick={act(() => remove.mutateAsync(channel.id))}
                    >
                      {t('operatorAlerts.remove')}
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <AddChannel />
    </div>
  );
}

function Settings({ settings }: { settings: AlertSettingsView }) {
  const { t } = useTranslation('admin');
  const prefix = useId();
  const [values, setValues] = useState(settings);
  const save = useSaveAlertSettings();
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    try {
      await save.mutateAsync(values);
      toast.success(t('operatorAlerts.settingsSaved'));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }
  return (
    <Card className="p-4">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {(Object.keys(settings) as (keyof AlertSettingsView)[]).map((key) => (
          <Field key={key} id={`${prefix}-${key}`} label={t(`operatorAlerts.settings.${key}`)}>
            <Input
              id={`${prefix}-${key}`}
              type="number"
              inputMode="numeric"
              min={0}
              value={values[key]}
              onChange={(event) => setValues({ ...values, [key]: Number(event.target.value) })}
            />
          </Field>
        ))}
        <div className="flex items-end">
          <Button type="submit" disabled={save.isPending}>
            {t('operatorAlerts.saveSettings')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/**
 * `/admin/alerts`: the operators' alerts (open and resolved) with links to the pages that show them, the
 * suppliers' balances, the channels alerts go out through, and the thresholds.
 */
export function AlertsPage() {
  const { t } = useTranslation('admin');
  const view = useQuery(alertsQuery());
  return (
    <>
      <PageHeader title={t('nav.alerts')} description={t('operatorAlerts.description')} />
      {view.isPending && <SkeletonRows count={3} rowClassName="h-12 rounded-md" />}
      {view.isError && !view.data && <LoadError error={view.error} />}
      {view.data && (
        <div className="flex min-w-0 flex-col gap-6">
          <section className="min-w-0">
            <h2 className="mb-2 text-lg font-semibold">{t('operatorAlerts.alerts')}</h2>
            <AlertList alerts={view.data.alerts} />
          </section>
          <section className="min-w-0">
            <h2 className="mb-2 text-lg font-semibold">{t('operatorAlerts.balances')}</h2>
            <Balances balances={view.data.balances} />
          </section>
          <section className="min-w-0">
            <h2 className="mb-2 text-lg font-semibold">{t('operatorAlerts.channels')}</h2>
            <Channels channels={view.data.channels} />
          </section>
          <section className="min-w-0">
            <h2 className="mb-2 text-lg font-semibold">{t('operatorAlerts.thresholds')}</h2>
            <Settings key={JSON.stringify(view.data.settings)} settings={view.data.settings} />
          </section>
        </div>
      )}
    </>
  );
}
