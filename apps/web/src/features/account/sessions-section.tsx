import type { AccountSession, ApiKeyView } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, LogOut, MonitorSmartphone } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CheckboxField } from '@/components/checkbox-field';
import { DateTime } from '@/components/date-time';
import { SectionCard } from '@/components/section-card';
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
import { SkeletonRows } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { apiKeysQuery } from '@/lib/api-keys-query';
import { deviceName } from '@/lib/device-name';
import { formatDateTime } from '@/lib/format';
import { signOutHere } from '@/lib/session';
import { sessionsQuery, useSignOutEverywhere, useSignOutSession } from './api';

function SessionRow({ session, onSignedOut }: { session: AccountSession; onSignedOut(): void }) {
  const { t } = useTranslation('account');
  const signOut = useSignOutSession();
  const name = deviceName(session.user_agent);
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {name}
          {session.current && <Badge variant="success">{t('sessions.thisDevice')}</Badge>}
        </p>
        {session.user_agent && (
          <p className="truncate text-xs text-muted-foreground" title={session.user_agent}>
            {session.user_agent}
          </p>
        )}
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-sm text-muted-foreground">
          <div className="flex gap-1">
            <dt>{t('sessions.address')}</dt>
            <dd className="break-all text-foreground">{session.address ?? t('sessions.unknownAddress')}</dd>
          </div>
          <div className="flex gap-1">
            <dt>{t('sessions.signedIn')}</dt>
            <dd className="text-foreground">
              <DateTime value={session.created_at} />
            </dd>
          </div>
          <div className="flex gap-1">
            <dt>{t('sessions.lastSeen')}</dt>
            <dd className="text-foreground">
              <DateTime value={session.last_seen_at} />
            </dd>
          </div>
        </dl>
      </div>
      {!session.current && (
        <Button
          variant="outline"
          size="sm"
          className="self-start sm:self-center"
          busy={signOut.isPending}
          onClick={() =>
            signOut.mutate(session.id, {
              onSuccess: (answer) => {
                toast.success(answer.message);
                onSignedOut();
              },
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        >
          <LogOut aria-hidden="true" />
          {t('sessions.signOut')}
          <span className="sr-only">
            {' '}
            {t('sessions.signOutWhich', { device: name, time: formatDateTime(session.last_seen_at) })}
          </span>
        </Button>
      )}
    </li>
  );
}

/** An API key beside the sessions: it signs in too, for as long as it lives. */
function KeyRow({ apiKey }: { apiKey: ApiKeyView }) {
  const { t } = useTranslation('account');
  return (
    <li className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0">
      <p className="flex flex-wrap items-center gap-2 font-medium">
        <KeyRound aria-hidden="true" className="size-4 text-muted-foreground" />
        {apiKey.name}
        <span className="font-mono text-xs text-muted-foreground">{apiKey.prefix}…</span>
        {apiKey.revoked_at && <Badge variant="muted">{t('sessions.keyRevoked')}</Badge>}
      </p>
      <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-sm text-muted-foreground">
        <div className="flex gap-1">
          <dt>{t('sessions.keyCreated')}</dt>
          <dd className="text-foreground">
            <DateTime value={apiKey.created_at} />
          </dd>
        </div>
        <div className="flex gap-1">
          <dt>{t('sessions.keyLastUsed')}</dt>
          <dd className="text-foreground">
            {apiKey.last_used_at ? <DateTime value={apiKey.last_used_at} /> : t('sessions.keyNeverUsed')}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** Where the account is signed in: this device first, then the most recently seen; then the API keys. */
export function SessionsSection() {
  const { t } = useTranslation('account');
  const sessions = useQuery(sessionsQuery);
  const keys = useQuery(apiKeysQuery);
  const everywhere = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  const [revokeKeys, setRevokeKeys] = useState(true);
  // The row that had focus is gone: the list takes it, rather than the page's start.
  const listRef = useRef<HTMLUListElement>(null);
  const list = [...(sessions.data?.sessions ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at),
  );

  return (
    <SectionCard
      id="sessions"
      icon={MonitorSmartphone}
      title={t('sessions.title')}
      description={t('sessions.description')}
      className="lg:col-span-2"
      actions={
        <Button variant="outline" onClick={() => setConfirming(true)} busy={everywhere.isPending}>
          <LogOut aria-hidden="true" />
          {t('sessions.signOutEverywhere')}
        </Button>
      }
    >
      {sessions.isPending && <SkeletonRows count={2} rowClassName="h-16 rounded-lg" />}
      {sessions.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(sessions.error)}</AlertDescription>
        </Alert>
      )}
      {sessions.data && (
        <ul ref={listRef} tabIndex={-1} aria-label={t('sessions.list')} className="divide-y outline-none">
          {list.map((session) => (
            <SessionRow key={session.id} session={session} onSignedOut={() => listRef.current?.focus()} />
          ))}
        </ul>
      )}
      <h3 className="mt-6 mb-2 text-sm font-semibold">{t('sessions.keysTitle')}</h3>
      {keys.data &&
        (keys.data.keys.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('sessions.keysNone')}</p>
        ) : (
          <ul aria-label={t('sessions.keysTitle')} className="divide-y">
            {keys.data.keys.map((apiKey) => (
              <KeyRow key={apiKey.id} apiKey={apiKey} />
            ))}
          </ul>
        ))}
      {keys.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(keys.error)}</AlertDescription>
        </Alert>
      )}
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('sessions.confirmTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{t('sessions.confirmBody')}</AlertDialogDescription>
          </AlertDialogHeader>
          <CheckboxField
            checked={revokeKeys}
            onChange={setRevokeKeys}
            label={t('sessions.revokeKeys')}
            hint={t('sessions.revokeKeysHint')}
          />
          <AlertDialogFooter>
            <AlertDialogCancel className={buttonVariants({ variant: 'outline' })}>
              {t('sessions.cancel')}
            </AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              onClick={() =>
                everywhere.mutate(
                  { revoke_api_keys: revokeKeys },
                  {
                    onSuccess: () => signOutHere(),
                    onError: (error) => toast.error(errorMessage(error)),
                  },
                )
              }
            >
              {t('sessions.signOutEverywhere')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </SectionCard>
  );
}
