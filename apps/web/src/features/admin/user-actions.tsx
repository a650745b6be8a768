import type { AdminUserDetailResponse } from '@simcode/contract';
import { Ban, CircleCheck, KeyRound, LogOut, ShieldCheck, ShieldMinus, Wallet, Wrench } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { formatDollars } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { AmountField, amountProblem, parseDollars } from './amount-field';
import { type AdjustmentResponse, type AdminUserActionResponse, useAdminAction, userActions } from './api';
import { ConsoleSection } from './parts';

type User = AdminUserDetailResponse['user'];

/**
 * A key for one adjustment, drawn when its dialog opens: a double click or a retry of the same dialog sends
 * the same key, and the server applies it once. From getRandomValues, which plain-HTTP pages have too.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function AdjustBalance({ user }: { user: User }) {
  const directionName = useId();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const key = useRef(newIdempotencyKey());
  const adjust = useAdminAction<{ amount: number; reason: string }, AdjustmentResponse>(
    ({ amount, reason }) => userActions.adjust(user.id)({ amount, reason, idempotency_key: key.current }),
  );
  const dollars = parseDollars(amount);
  const shown = dollars === null ? 'The amount' : formatDollars(dollars);
  return (
    <ActionDialog
      label="Credit or debit"
      icon={Wallet}
      variant="default"
      title={`Adjust ${user.username}'s balance`}
      description={
        direction === 'credit'
          ? `${shown} is added to ${user.username}'s balance (${formatDollars(user.balance)} now) as an adjustment in the ledger.`
          : `${shown} is taken from ${user.username}'s balance (${formatDollars(user.balance)} now) as an adjustment in the ledger.`
      }
      confirmLabel={
        direction === 'credit'
          ? `Credit ${dollars === null ? '' : shown}`.trim()
          : `Debit ${dollars === null ? '' : shown}`.trim()
      }
      onOpen={() => {
        key.current = newIdempotencyKey();
        setDirection('credit');
        setAmount('');
      }}
      validate={() => (dollars === null ? amountProblem : null)}
      run={(reason) => adjust.mutateAsync({ amount: direction === 'credit' ? dollars! : -dollars!, reason })}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Direction</legend>
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
              {value === 'credit' ? 'Credit (add money)' : 'Debit (take money)'}
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
  const block = useAdminAction<string, AdminUserActionResponse>((reason) =>
    (user.blocked ? userActions.unblock : userActions.block)(user.id)({ reason }),
  );
  const role = useAdminAction<string, AdminUserActionResponse>((reason) =>
    userActions.role(user.id)({ role: user.role === 'admin' ? 'user' : 'admin', reason }),
  );
  const resetTwoFactor = useAdminAction<string, AdminUserActionResponse>((reason) =>
    userActions.resetTwoFactor(user.id)({ reason }),
  );
  const signOut = useAdminAction<string, AdminUserActionResponse>((reason) =>
    userActions.signOut(user.id)({ reason }),
  );
  return (
    <ConsoleSection
      id="user-actions"
      icon={Wrench}
      title="Actions"
      description="Each action asks for a reason and is recorded in the audit log."
    >
      <div className="flex flex-wrap gap-2">
        <AdjustBalance user={user} />
        {user.blocked ? (
          <ActionDialog
            label="Unblock"
            icon={CircleCheck}
            title={`Unblock ${user.username}?`}
            description={`${user.username} can sign in, buy numbers and use API keys again.`}
            confirmLabel="Unblock"
            run={(reason) => block.mutateAsync(reason)}
          />
        ) : (
          <ActionDialog
            label="Block"
            icon={Ban}
            title={`Block ${user.username}?`}
            description={`${user.username} is signed out everywhere and can no longer sign in, buy numbers or use API keys until unblocked.`}
            confirmLabel="Block"
            destructive
            run={(reason) => block.mutateAsync(reason)}
          />
        )}
        {user.role === 'admin' ? (
          <ActionDialog
            label="Demote to user"
            icon={ShieldMinus}
            title={`Demote ${user.username}?`}
            description={`${user.username} loses the operator console and is signed out everywhere.`}
            confirmLabel="Demote"
            destructive
            run={(reason) => role.mutateAsync(reason)}
          />
        ) : (
          <ActionDialog
            label="Promote to administrator"
            icon={ShieldCheck}
            title={`Promote ${user.username}?`}
            description={`${user.username} gets the operator console: every account, order, payment and price. Their sessions end, so they sign in again.`}
            confirmLabel="Promote"
            run={(reason) => role.mutateAsync(reason)}
          />
        )}
        {user.two_factor && (
          <ActionDialog
            label="Reset two-factor"
            icon={KeyRound}
            title={`Turn off two-factor sign-in for ${user.username}?`}
            description="For a user who lost their authenticator and recovery codes: they sign in with the password alone until they turn it on again."
            confirmLabel="Reset two-factor"
            destructive
            run={(reason) => resetTwoFactor.mutateAsync(reason)}
          />
        )}
        <ActionDialog
          label="Sign out everywhere"
          icon={LogOut}
          title={`Sign ${user.username} out everywhere?`}
          description="Every session of this account ends: each browser and app has to sign in again."
          confirmLabel="Sign out everywhere"
          run={(reason) => signOut.mutateAsync(reason)}
        />
      </div>
    </ConsoleSection>
  );
}
