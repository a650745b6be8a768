import { Copy } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '@/lib/copy';
import { cn } from '@/lib/utils';

/** Text that copies itself on a click: a number or a code, named for assistive technology ("Copy code 1234"). */
export function CopyButton({
  value,
  what,
  className,
  iconClassName,
  children,
}: {
  value: string;
  /** Which kind of text it is (not shown: the button words it in the reader's language). */
  what: 'Number' | 'Code';
  className?: string;
  iconClassName?: string;
  /** What shows; the value itself when not given. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <button
      type="button"
      onClick={() => copyToClipboard(value, what === 'Number' ? t('copy.numberNoun') : t('copy.codeNoun'))}
      className={cn('group flex items-center gap-1.5 rounded', className)}
      aria-label={what === 'Number' ? t('copy.number', { value }) : t('copy.code', { value })}
    >
      {children ?? value}
      <Copy className={cn('size-3.5 opacity-50 group-hover:opacity-100', iconClassName)} aria-hidden="true" />
    </button>
  );
}
