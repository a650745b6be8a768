import { useTranslation } from 'react-i18next';
import { DateTime } from '@/components/date-time';
import { Badge } from '@/components/ui/badge';

/** An SMS as the console lists it; a rent's has its sender, an order's may have come late. */
interface ConsoleSms {
  received_at: string;
  text: string;
  code: string | null;
  sender?: string;
  late?: boolean;
}

/** The SMS an order or a rent received, oldest first: when, from whom, the code, and the text. */
export function SmsList({ messages, label }: { messages: ConsoleSms[]; label: string }) {
  const { t } = useTranslation('admin');
  return (
    <ul className="divide-y" aria-label={label}>
      {messages.map((message) => (
        <li
          key={`${message.received_at}-${message.text}`}
          className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0"
        >
          <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            <DateTime value={message.received_at} />
            {message.sender && <span className="font-medium text-foreground">{message.sender}</span>}
            {message.code && <span className="font-mono text-sm text-foreground">{message.code}</span>}
            {message.late && <Badge variant="warning">{t('order.late')}</Badge>}
          </span>
          <span className="text-sm wrap-anywhere">{message.text}</span>
        </li>
      ))}
    </ul>
  );
}
