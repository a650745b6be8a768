import type { PurchasedNumber } from '@simcode/contract';
import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';

function Sms({ sms }: { sms: PurchasedNumber['sms'][number] }) {
  return (
    <li className="flex flex-col gap-0.5 rounded-md bg-muted/60 px-3 py-2">
      <time className="text-xs text-muted-foreground" dateTime={sms.received_at}>
        {formatDateTime(sms.received_at)}
      </time>
      <p className="text-sm break-words whitespace-pre-wrap [overflow-wrap:anywhere]">{sms.text}</p>
    </li>
  );
}

/**
 * Every SMS of the number with its full text and time, oldest first: one is shown as it is; more fold
 * into a list that opens (the code on the card is the latest).
 */
export function SmsHistory({ sms }: { sms: PurchasedNumber['sms'] }) {
  const { t } = useTranslation('numbers');
  if (sms.length === 0) return null;
  if (sms.length === 1) {
    return (
      <ul aria-label={t('card.messages')}>
        <Sms sms={sms[0]!} />
      </ul>
    );
  }
  return (
    <details className="group rounded-lg border">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
        {t('card.allMessages', { count: sms.length })}
        <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <ul className="flex flex-col gap-2 px-3 pb-3" aria-label={t('card.messages')}>
        {sms.map((message) => (
          <Sms key={`${message.received_at}-${message.text}`} sms={message} />
        ))}
      </ul>
    </details>
  );
}
