import { statusPaths } from '@simcode/contract';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';

/** A signed-in user's e-mail notices: one when an incident opens, one when it closes. */
export function SubscriptionToggle() {
  const { t } = useTranslation('status');
  const id = useId();
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    apiRequest<{ subscribed: boolean }>(statusPaths.subscription).then(
      (answer) => setSubscribed(answer.subscribed),
      () => setFailed(true),
    );
  }, []);
  // The box follows the click at once and goes back if the server did not keep the choice.
  const change = async (next: boolean) => {
    setFailed(false);
    setSubscribed(next);
    try {
      const answer = await apiRequest<{ subscribed: boolean }>(statusPaths.subscription, {
        method: 'PUT',
        body: { subscribed: next },
      });
      setSubscribed(answer.subscribed);
    } catch {
      setSubscribed(!next);
      setFailed(true);
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          className="size-4 accent-indigo-600"
          checked={subscribed ?? false}
          disabled={subscribed === null}
          onChange={(event) => change(event.target.checked)}
        />
        <label htmlFor={id} className="text-sm text-slate-800">
          {t('subscribe.mail')}
        </label>
      </div>
      <p aria-live="polite" className="text-sm text-red-700">
        {failed ? t('subscribe.failed') : ''}
      </p>
    </div>
  );
}
