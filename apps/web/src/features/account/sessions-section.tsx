import type { AccountSession } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { LogOut, MonitorSmartphone } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
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
import { signOutHere } from '@/features/auth/session';
import { errorMessage } from '@/lib/api-client';
import { sessionsQuery, useSignOutEverywhere, useSignOutSession } from './api';
import { AccountSection, DateTime } from './parts';

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS/, 'Firefox'],
  [/Chrome\/|CriOS|Chromium/, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iOS/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox on Windows" from a user agent; API clients and unknown agents keep their own first word. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.split(/[\s/]/)[0] ?? 'Unknown device';
}

function SessionRow({ session, onSignedOut }: { session: AccountSession; onSignedOut(): void }) {
  const signOut = useSignOutSession();
  const name = deviceName(session.user_agent);
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {name}
          {session.current && <Badge variant="success">This device</Badge>}
        </p>
        {session.user_agent && (
          <p className="truncate text-xs text-muted-foreground" title={session.user_agent}>
            {session.user_agent}
          </p>
        )}
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-sm text-muted-foreground">
          <div className="flex gap-1">
            <dt>Address:</dt>
            <dd className="break-all text-foreground">{session.address ?? 'unknown'}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Signed in:</dt>
            <dd className="text-foreground">
              <DateTime value={session.created_at} />
            </dd>
          </div>
          <div className="flex gap-1">
            <dt>Last seen:</dt>
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
          Sign out
          <span className="sr-only">
            {' '}
            {name}, last seen {new Date(session.last_seen_at).toLocaleString()}
          </span>
        </Button>
      )}
    </li>
  );
}

/** Where the account is signed in: this device first, then the most recently seen. */
export function SessionsSection() {
  const sessions = useQuery(sessionsQuery);
  const everywhere = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  // The row that had focus is gone: the list takes it, rather than the page's start.
  const listRef = useRef<HTMLUListElement>(null);
  const list = [...(sessions.data?.sessions ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at),
  );

  return (
    <AccountSection
      id="sessions"
      icon={MonitorSmartphone}
      title="Active sessions"
      description="The browsers and apps signed in to your account. Sign out any you do not recognise, then change your password."
      className="lg:col-span-2"
      actions={
        <Button variant="outline" onClick={() => setConfirming(true)} busy={everywhere.isPending}>
          <LogOut aria-hidden="true" />
          Sign out everywhere
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
        <ul ref={listRef} tabIndex={-1} aria-label="Sessions" className="divide-y outline-none">
          {list.map((session) => (
            <SessionRow key={session.id} session={session} onSignedOut={() => listRef.current?.focus()} />
          ))}
        </ul>
      )}
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Sign out everywhere?</AlertDialogTitle>
            <AlertDialogDescription>
              Every session ends, this one too: you will need your password (and code) to sign in again.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel className={buttonVariants({ variant: 'outline' })}>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              onClick={() =>
                everywhere.mutate(undefined, {
                  onSuccess: () => signOutHere(),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
            >
              Sign out everywhere
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </AccountSection>
  );
}
