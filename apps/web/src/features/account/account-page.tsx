import { type Account, accountMessages } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Bell, UserRound } from 'lucide-react';
import { useId } from 'react';
import { toast } from 'sonner';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { accountQuery, useSaveNotifications } from './api';
import { ChangeEmailForm, ChangePasswordForm } from './credentials-forms';
import { AccountSection, DateTime } from './parts';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-sm font-medium">{children}</dd>
    </div>
  );
}

function ProfileSection({ account }: { account: Account }) {
  return (
    <AccountSection id="profile" icon={UserRound} title="Profile">
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2">
        <Detail label="Username">{account.username}</Detail>
        <Detail label="E-mail">
          <span className="break-all">{account.email}</span>
        </Detail>
        <Detail label="Member since">
          <DateTime value={account.created_at} />
        </Detail>
        <Detail label="Two-factor">
          <Badge variant={account.two_factor_enabled ? 'success' : 'muted'}>
            {account.two_factor_enabled ? 'On' : 'Off'}
          </Badge>
        </Detail>
      </dl>
    </AccountSection>
  );
}

/** Saved as soon as it is ticked; the box shows the new value while the server answers. */
function NotificationsSection({ account }: { account: Account }) {
  const id = useId();
  const save = useSaveNotifications();
  const checked = save.isPending && save.variables !== undefined ? save.variables : account.code_emails;
  return (
    <AccountSection
      id="notifications"
      icon={Bell}
      title="E-mail notifications"
      description={
        <>
          Sent to <span className="break-all">{account.email}</span>.
        </>
      }
    >
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-busy={save.isPending || undefined}
          onChange={(event) => {
            if (save.isPending) return;
            save.mutate(event.target.checked, {
              onSuccess: (answer) => toast.success(answer.message),
              onError: (error) => toast.error(errorMessage(error)),
            });
          }}
          className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary"
        />
        <label htmlFor={id} className="cursor-pointer text-sm">
          <span className="font-medium">E-mail me when a number receives a code</span>
          <span className="block text-muted-foreground">
            The code and the service it is for, as soon as it arrives.
          </span>
        </label>
      </div>
    </AccountSection>
  );
}

/** `/dashboard/account`: who the account is, how it signs in, what it is e-mailed, where it is signed in. */
export function AccountPage() {
  const account = useQuery(accountQuery);
  const data = account.data?.account;
  return (
    <PageContainer>
      <PageHeader
        title="Account"
        description="Your sign-in details, two-factor authentication, e-mail notifications and the devices signed in to your account."
      />
      {account.isError && !data && (
        <Alert variant="destructive">
          <AlertDescription>
            {errorMessage(account.error, accountMessages.fetchAccountFailed)}
          </AlertDescription>
        </Alert>
      )}
      {account.isPending && (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <Skeleton className="h-40 rounded-xl" />
          <Skeleton className="h-40 rounded-xl" />
          <Skeleton className="h-72 rounded-xl" />
          <Skeleton className="h-72 rounded-xl" />
        </div>
      )}
      {data && (
        <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2">
          <ProfileSection account={data} />
          <NotificationsSection account={data} />
          <ChangePasswordForm />
          <ChangeEmailForm currentEmail={data.email} />
          <TwoFactorSection account={data} />
          <SessionsSection />
        </div>
      )}
    </PageContainer>
  );
}
