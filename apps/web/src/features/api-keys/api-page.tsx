import type { ApiKeyView } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SkeletonRows } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatDateTime, formatDollars } from '@/lib/format';
import {
  apiKeysQuery,
  useCreateApiKey,
  useResumeApiKey,
  useRevokeApiKey,
  useTestDelivery,
  useUpdateApiKey,
} from './api';
import { CreatedKeyDialog } from './created-key-dialog';
import { KeyFormDialog } from './key-form-dialog';
import { KeyLog } from './key-log';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-sm">{children}</dd>
    </div>
  );
}

function KeyCard({ apiKey }: { apiKey: ApiKeyView }) {
  const { t } = useTranslation('apiKeys');
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const update = useUpdateApiKey();
  const revoke = useRevokeApiKey();
  const resume = useResumeApiKey();
  const testDelivery = useTestDelivery();
  const live = apiKey.revoked_at === null;
  const cap = (value: number | null) => (value === null ? t('noCap') : formatDollars(value));

  return (
    <Card className="flex flex-col gap-4 p-4 sm:p-5">
      <div className="flex flex-wrap items-center gap-2">
        <KeyRound className="size-5 text-primary" aria-hidden="true" />
        <h2 className="min-w-0 flex-1 truncate font-semibold">{apiKey.name}</h2>
        {apiKey.paused_at && live && <Badge variant="warning">{t('paused')}</Badge>}
        <Badge variant={live ? 'success' : 'muted'}>{live ? t('live') : t('revoked')}</Badge>
      </div>
      {apiKey.paused_at && live && (
        <Alert>
          <AlertDescription className="flex flex-wrap items-center gap-3">
            <span className="min-w-0 flex-1">
              {t('pausedBody', { count: apiKey.failures_in_a_row, time: formatDateTime(apiKey.paused_at) })}
            </span>
            <Button
              size="sm"
              disabled={resume.isPending}
              onClick={() =>
                resume.mutate(apiKey.id, {
                  onSuccess: () => toast.success(t('resumedToast')),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
            >
              {t('resume')}
            </Button>
          </AlertDescription>
        </Alert>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Detail label={t('prefix')}>
          <code className="font-mono">{apiKey.prefix}…</code>
        </Detail>
        <Detail label={t('created')}>{formatDate(apiKey.created_at)}</Detail>
        <Detail label={t('lastUsed')}>
          {apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : t('never')}
        </Detail>
        <Detail label={t('activeOrders')}>
          {apiKey.active_orders}
          {apiKey.max_active_orders !== null && ` / ${apiKey.max_active_orders}`}
        </Detail>
        <Detail label={t('spentToday')}>
          {formatDollars(apiKey.spent_today)} · {t('dailyCap')}: {cap(apiKey.daily_cap)}
        </Detail>
        <Detail label={t('spentTotal')}>
          {formatDollars(apiKey.spent_total)} · {t('totalCap')}: {cap(apiKey.total_cap)}
        </Detail>
        <Detail label={t('allowedIps')}>
          {apiKey.allowed_ips.length > 0 ? apiKey.allowed_ips.join(', ') : t('anyIp')}
        </Detail>
        <Detail label={t('callback')}>{apiKey.callback_url ?? t('noCallback')}</Detail>
        <Detail label={t('scope')}>{t(`scopes.${apiKey.scope}`)}</Detail>
        <Detail label={t('guards')}>
          {[
            apiKey.max_price !== null && t('guardMaxPrice', { price: formatDollars(apiKey.max_price) }),
            apiKey.min_delivery_rate !== null &&
              t('guardMinRate', { rate: Math.round(apiKey.min_delivery_rate * 100) }),
            apiKey.stop_after_failures !== null && t('guardStopAfter', { count: apiKey.stop_after_failures }),
          ]
            .filter(Boolean)
            .join(' · ') || t('noGuards')}
        </Detail>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => setShowLog((value) => !value)}
          aria-expanded={showLog}
        >
          {showLog ? t('hideLog') : t('showLog')}
        </Button>
        {live && (
          <>
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              {t('edit')}
            </Button>
            {apiKey.callback_url && (
              <Button
                variant="outline"
                size="sm"
                disabled={testDelivery.isPending}
                onClick={() =>
                  testDelivery.mutate(apiKey.id, {
                    onSuccess: () => {
                      toast.success(t('testQueued'));
                      setShowLog(true);
                    },
                    onError: (error) => toast.error(errorMessage(error)),
                  })
                }
              >
                {t('testDelivery')}
              </Button>
            )}
            <Button variant="destructive" size="sm" onClick={() => setConfirming(true)}>
              {t('revoke')}
            </Button>
          </>
        )}
      </div>
      {showLog && <KeyLog keyId={apiKey.id} />}
      {editing && (
        <KeyFormDialog
          open
          onOpenChange={setEditing}
          initial={apiKey}
          onSubmit={async (body) => {
            await update.mutateAsync({ id: apiKey.id, body });
            toast.success(t('form.saved'));
          }}
        />
      )}
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('revokeTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{t('revokeBody')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel className={buttonVariants({ variant: 'outline' })}>
              {t('cancel')}
            </AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              onClick={() =>
                revoke.mutate(apiKey.id, {
                  onSuccess: () => toast.success(t('revokedToast')),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
            >
              {t('revokeConfirm')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}

export function ApiPage() {
  const { t } = useTranslation('apiKeys');
  const keys = useQuery(apiKeysQuery);
  const create = useCreateApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ secret: string; webhookSecret: string } | null>(null);

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <Link to="/docs/api" className={buttonVariants({ variant: 'outline' })}>
              {t('docsLink')}
            </Link>
            <Button onClick={() => setCreating(true)}>
              <Plus className="size-4" aria-hidden="true" />
              {t('create')}
            </Button>
          </>
        }
      />
      {keys.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(keys.error, t('loadFailed'))}</AlertDescription>
        </Alert>
      )}
      {keys.isPending && <SkeletonRows count={2} />}
      {keys.data && keys.data.keys.length === 0 && <p className="text-muted-foreground">{t('empty')}</p>}
      <div className="flex flex-col gap-4">
        {keys.data?.keys.map((apiKey) => (
          <KeyCard key={apiKey.id} apiKey={apiKey} />
        ))}
      </div>
      {creating && (
        <KeyFormDialog
          open
          onOpenChange={setCreating}
          onSubmit={async (settings, proof) => {
            const answer = await create.mutateAsync({ ...settings, ...proof });
            setCreated({ secret: answer.secret, webhookSecret: answer.key.webhook_secret });
          }}
        />
      )}
      <CreatedKeyDialog created={created} onClose={() => setCreated(null)} />
    </PageContainer>
  );
}
