import { type Account, accountMessages } from '@simcode/contract';
import { type UseMutationResult, useQuery } from '@tanstack/react-query';
import { Bell, MousePointerClick, UserRound } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CheckboxField } from '@/components/checkbox-field';
import { DateTime } from '@/components/date-time';
import { PageContainer, PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { accountQuery } from '@/lib/account-query';
import { errorMessage } from '@/lib/api-client';
import { useSaveBuying, useSaveNotifications } from './api';
import { ChangeEmailForm, ChangePasswordForm } from './credentials-forms';
import { LanguageSection } from './language-section';
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
  const { t } = useTranslation('account');
  return (
    <SectionCard id="profile" icon={UserRound} title={t('profile.title')}>
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2">
        <Detail label={t('profile.username')}>{account.username}</Detail>
        <Detail label={t('profile.email')}>
          <span className="break-all">{account.email}</span>
        </Detail>
        <Detail label={t('profile.memberSince')}>
          <DateTime value={account.created_at} />
        </Detail>
        <Detail label={t('profile.twoFactor')}>
          <Badge variant={account.two_factor_enabled ? 'success' : 'muted'}>
            {account.two_factor_enabled ? t('status.on') : t('status.off')}
          </Badge>
        </Detail>
      </dl>
    </SectionCard>
  );
}

/** A preference saved as soon as it is ticked; the box shows the new value while the server answers. */
function PreferenceBox({
  saved,
  save,
  label,
  hint,
}: {
  saved: boolean;
  save: UseMutationResult<{ message: string }, Error, boolean>;
  label: string;
  hint: string;
}) {
  return (
    <CheckboxField
      checked={save.isPending && save.variables !== undefined ? save.variables : saved}
      busy={save.isPending}
      onChange={(checked) => {
        if (save.isPending) return;
        save.mutate(checked, {
          onSuccess: (answer) => toast.success(answer.message),
          onError: (error) => toast.error(errorMessage(error)),
        });
      }}
      label={label}
      hint={hint}
    />
  );
}

function NotificationsSection({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const save = useSaveNotifications();
  return (
    <SectionCard
      id="notifications"
      icon={Bell}
      title={t('notifications.title')}
      description={
        <Trans
          t={t}
          i18nKey="notifications.sentTo"
          values={{ email: account.email }}
          components={{ value: <span className="break-all" /> }}
        />
      }
    >
      <PreferenceBox
        saved={account.code_emails}
        save={save}
        label={t('notifications.codeEmails')}
        hint={t('notifications.codeEmailsHint')}
      />
    </SectionCard>
  );
}

function BuyingSection({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const save = useSaveBuying();
  return (
    <SectionCard id="buying" icon={MousePointerClick} title={t('buying.title')}>
      <PreferenceBox
        saved={account.one_click_buying}
        save={save}
        label={t('buying.oneClick')}
        hint={t('buying.oneClickHint')}
      />
    </SectionCard>
  );
}

/** `/dashboard/account`: who the account is, how it signs in, what it is e-mailed, where it is signed in. */
export function AccountPage() {
  const { t } = useTranslation('account');
  const account = useQuery(accountQuery);
  const data = account.data?.account;
  return (
    <PageContainer>
      <PageHeader title={t('page.title')} description={t('page.description')} />
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
          <BuyingSection account={data} />
          <ChangePasswordForm />
          <ChangeEmailForm currentEmail={data.email} />
          <LanguageSection />
          <TwoFactorSection account={data} />
          <SessionsSection />
        </div>
      )}
    </PageContainer>
  );
}
