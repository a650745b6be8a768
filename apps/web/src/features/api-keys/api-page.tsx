import type { ApiKeyView } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
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
import { formatDollars } from '@/lib/format';
import { apiKeysQuery, useCreateApiKey, useRevokeApiKey, useTestDelivery, useUpdateApiKey } from './api';
import { CreatedKeyDialog } from './created-key-dialog';
import { KeyFormDialog } from './key-form-dialog';
import { KeyLog } from './key-log';
import { apiPageTexts as texts } from './texts';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-sm">{children}</dd>
    </div>
  );
}

function KeyCard({ apiKey }: { apiKey: ApiKeyView }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const update = useUpdateApiKey();
  const revoke = useRevokeApiKey();
  const testDelivery = useTestDelivery();
  const live = apiKey.revoked_at === null;
  const cap = (value: number | null) => (value === null ? texts.noCap : formatDollars(value));

  return (
    <Card className="flex flex-col gap-4 p-4 sm:p-5">
      <div className="flex flex-wrap items-center gap-2">
        <KeyRound className="size-5 text-primary" aria-hidden="true" />
        <h2 className="min-w-0 flex-1 truncate font-semibold">{apiKey.name}</h2>
        <Badge variant={live ? 'success' : 'muted'}>{live ? texts.live : texts.revoked}</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Detail label={texts.prefix}>
          <code className="font-mono">{apiKey.prefix}…</code>
        </Detail>
        <Detail label={texts.created}>{new Date(apiKey.created_at).toLocaleDateString()}</Detail>
        <Detail label={texts.lastUsed}>
          {apiKey.last_used_at ? new Date(apiKey.last_used_at).toLocaleString() : texts.never}
        </Detail>
        <Detail label={texts.activeOrders}>
          {apiKey.active_orders}
          {apiKey.max_active_orders !== null && ` / ${apiKey.max_active_orders}`}
        </Detail>
        <Detail label={texts.spentToday}>
          {formatDollars(apiKey.spent_today)} · {texts.dailyCap}: {cap(apiKey.daily_cap)}
        </Detail>
        <Detail label={texts.spentTotal}>
          {formatDollars(apiKey.spent_total)} · {texts.totalCap}: {cap(apiKey.total_cap)}
        </Detail>
        <Detail label={texts.allowedIps}>
          {apiKey.allowed_ips.length > 0 ? apiKey.allowed_ips.join(', ') : texts.anyIp}
        </Detail>
        <Detail label={texts.callback}>{apiKey.callback_url ?? texts.noCallback}</Detail>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => setShowLog((value) => !value)}
          aria-expanded={showLog}
        >
          {showLog ? texts.hideLog : texts.showLog}
        </Button>
        {live && (
          <>
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              {texts.edit}
            </Button>
            {apiKey.callback_url && (
              <Button
                variant="outline"
                size="sm"
                disabled={testDelivery.isPending}
                onClick={() =>
                  testDelivery.mutate(apiKey.id, {
                    onSuccess: () => {
                      toast.success(texts.testQueued);
                      setShowLog(true);
                    },
                    onError: (error) => toast.error(errorMessage(error)),
                  })
                }
              >
                {texts.testDelivery}
              </Button>
            )}
            <Button variant="destructive" size="sm" onClick={() => setConfirming(true)}>
              {texts.revoke}
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
            toast.success(texts.form.saved);
          }}
        />
      )}
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{texts.revokeTitle}</AlertDialogTitle>
            <AlertDialogDescription>{texts.revokeBody}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel className={buttonVariants({ variant: 'outline' })}>
              {texts.cancel}
            </AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              onClick={() =>
                revoke.mutate(apiKey.id, {
                  onSuccess: () => toast.success(texts.revokedToast),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
            >
              {texts.revokeConfirm}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}

export function ApiPage() {
  const keys = useQuery(apiKeysQuery);
  const create = useCreateApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ secret: string; webhookSecret: string } | null>(null);

  return (
    <PageContainer>
      <PageHeader
        title={texts.title}
        description={texts.description}
        actions={
          <>
            <Link to="/docs/api" className={buttonVariants({ variant: 'outline' })}>
              {texts.docsLink}
            </Link>
            <Button onClick={() => setCreating(true)}>
              <Plus className="size-4" aria-hidden="true" />
              {texts.create}
            </Button>
          </>
        }
      />
      {keys.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(keys.error, texts.loadFailed)}</AlertDescription>
        </Alert>
      )}
      {keys.isPending && <SkeletonRows count={2} />}
      {keys.data && keys.data.keys.length === 0 && <p className="text-muted-foreground">{texts.empty}</p>}
      <div className="flex flex-col gap-4">
        {keys.data?.keys.map((apiKey) => (
          <KeyCard key={apiKey.id} apiKey={apiKey} />
        ))}
      </div>
      {creating && (
        <KeyFormDialog
          open
          onOpenChange={setCreating}
          onSubmit={async (body) => {
            const answer = await create.mutateAsync(body);
            setCreated({ secret: answer.secret, webhookSecret: answer.key.webhook_secret });
          }}
        />
      )}
      <CreatedKeyDialog created={created} onClose={() => setCreated(null)} />
    </PageContainer>
  );
}
