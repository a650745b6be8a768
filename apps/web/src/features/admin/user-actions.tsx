import type { AdminUserDetailResponse } from '@simcode/contract';
import { Ban, CircleCheck, KeyRound, LogOut, ShieldCheck, ShieldMinus, Wallet, Wrench } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '@/components/section-card';
import { formatDollars } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { AmountField, amountProblem, parseDollars } from './amount-field';
import {
  useAdjustBalance,
  useBlockUser,
  useResetTwoFactor,
  useSetRole,
  useSignOutUser,
  useUnblockUser,
} from './api';

type User = AdminUserDetailResponse['user'];

/**
 * A key for one adjustment, drawn when its dialog opens: a double click or a retry of the same dialog sends
 * the same key, and the server applies it once. From getRandomValues, which plain-HTTP pages have too.
 */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function AdjustBalance({ user }: { user: User }) {
  const { t } = useTranslation('admin');
  const directionName = useId();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const key = useRef(newIdempotencyKey());
  const adjust = useAdjustBalance(user.id);
  const dollars = parseDollars(amount);
  const shown = dollars === null ? t('userActions.theAmount') : formatDollars(dollars);
  const facts = { amount: shown, user: user.username, balance: formatDollars(user.balance) };
  return (
    <ActionDialog
      label={t('userActions.adjust')}
      icon={Wallet}
      variant="default"
      title={t('userActions.adjustTitle', { user: user.username })}
      description={t(
        direction === 'credit' ? 'userActions.creditDescription' : 'userActions.debitDescription',
        facts,
      )}
      confirmLabel={
        dollars === null
          ? t(direction === 'credit' ? 'userActions.credit' : 'userActions.debit')
          : t(direction === 'credit' ? 'userActions.creditAmount' : 'userActions.debitAmount', {
              amount: shown,
            })
      }
      onOpen={() => {
        key.current = newIdempotencyKey();
        setDirection('credit');
        setAmount('');
      }}
      validate={() => (dollars === null ? amountProblem() : null)}
      run={(reason) =>
        adjust.mutateAsync({
          amount: direction === 'credit' ? dollars! : -dollars!,
          reason,
          idempotency_key: key.current,
        })
      }
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">{t('userActions.direction')}</legend>
        <div className="flex flex-wrap gap-4">
          {(['credit', 'debit'] as const).map((value) => (
            <label key={value} className="flex cursor-pointer items-center gap-2 text-sm">
              <input
                type="radio"
                name={directionName}
                value={value}
                checked={direction === value}
                onChange={() => setDirection(value)}
                className="size-4 accent-primary"
              />
              {t(value === 'credit' ? 'userActions.creditOption' : 'userActions.debitOption')}
            </label>
          ))}
        </div>
      </fieldset>
      <AmountField value={amount} onChange={setAmount} />
    </ActionDialog>
  );
}

/** What an administrator can do to an account, each confirmed with a reason that goes into the audit log. */
export function UserActions({ user }: { user: User }) {
  const { t } = useTranslation('admin');
  const name = { user: user.username };
  const block = useBlockUser(user.id);
  const unblock = useUnblockUser(user.id);
  const role = useSetRole(user.id);
  const resetTwoFactor = useResetTwoFactor(user.id);
  const signOut = useSignOutUser(user.id);
  const otherRole = user.role === 'admin' ? 'user' : 'admin';
  return (
    <SectionCard
      id="user-actions"
      icon={Wrench}
      title={t('userActions.title')}
      description={t('userActions.description')}
    >
      <div className="flex flex-wrap gap-2">
        <AdjustBalance user={user} />
        {user.blocked ? (
          <ActionDialog
            label={t('userActions.unblock')}
            icon={CircleCheck}
            title={t('userActions.unblockTitle', name)}
            description={t('userActions.unblockDescription', name)}
            confirmLabel={t('userActions.unblock')}
            run={(reason) => unblock.mutateAsync({ reason })}
          />
        ) : (
          <ActionDialog
            label={t('userActions.block')}
            icon={Ban}
            title={t('userActions.blockTitle', name)}
            description={t('userActions.blockDescription', name)}
            confirmLabel={t('userActions.block')}
            destructive
            run={(reason) => block.mutateAsync({ reason })}
          />
        )}
        {user.role === 'admin' ? (
          <ActionDialog
            label={t('userActions.demoteLabel')}
            icon={ShieldMinus}
            title={t('userActions.demoteTitle', name)}
            description={t('userActions.demoteDescription', name)}
            confirmLabel={t('userActions.demote')}
            destructive
            run={(reason) => role.mutateAsync({ role: otherRole, reason })}
          />
        ) : (
          <ActionDialog
            label={t('userActions.promoteLabel')}
            icon={ShieldCheck}
            title={t('userActions.promoteTitle', name)}
            description={t('userActions.promoteDescription', name)}
            confirmLabel={t('userActions.promote')}
            run={(reason) => role.mutateAsync({ role: otherRole, reason })}
          />
        )}
        {user.two_factor && (
          <ActionDialog
            label={t('userActions.resetTwoFactor')}
            icon={KeyRound}
            title={t('userActions.resetTwoFactorTitle', name)}
            description={t('userActions.resetTwoFactorDescription')}
            confirmLabel={t('userActions.resetTwoFactor')}
            destructive
            run={(reason) => resetTwoFactor.mutateAsync({ reason })}
          />
        )}
        <ActionDialog
          label={t('userActions.signOut')}
          icon={LogOut}
          title={t('userActions.signOutTitle', name)}
          description={t('userActions.signOutDescription')}
          confirmLabel={t('userActions.signOut')}
          run={(reason) => signOut.mutateAsync({ reason })}
        />
      </div>
    </SectionCard>
  );
}
