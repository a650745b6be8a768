import { Copy } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '@/lib/copy';
import { codeForForms, formatPhone, phoneForForms } from '@/lib/format';
import { cn } from '@/lib/utils';

/**
 * Text that copies itself on a click, named for assistive technology ("Copy code 1234"). A number or a code
 * copies what a sign-up form takes, not what is shown: '+85517536036' for '+855 17 536 036', '360712' for
 * '360-712'; 'National' copies the number without its country code ('17536036'). A code example shows only
 * the icon and is named without its (long) text.
 */
export function CopyButton({
  value,
  what,
  className,
  iconClassName,
  children,
}: {
  value: string;
  /** Which kind of text it is (not shown: the button words it in the reader's language). */
  what: 'Number' | 'National' | 'Code' | 'Example';
  className?: string;
  iconClassName?: string;
  /** What shows; the value itself when not given. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('common');
  const phone = what === 'Number' || what === 'National' ? phoneForForms(value) : undefined;
  const copied =
    what === 'Code'
      ? codeForForms(value)
      : what === 'National'
        ? (phone!.national ?? phone!.international)
        : what === 'Number'
          ? phone!.international
          : value;
  // The name holds the text shown (axe: label-content-name-mismatch), the number as it is written.
  const { noun, label } = {
    Number: { noun: t('copy.numberNoun'), label: t('copy.number', { value: formatPhone(value) }) },
    National: { noun: t('copy.numberNoun'), label: t('copy.national', { value: copied }) },
    Code: { noun: t('copy.codeNoun'), label: t('copy.code', { value }) },
    Example: { noun: t('copy.exampleNoun'), label: t('copy.example') },
  }[what];
  const isExample = what === 'Example';
  return (
    <button
      type="button"
      onClick={() => copyToClipboard(copied, noun, { showText: !isExample })}
      className={cn('group flex items-center gap-1.5 rounded', className)}
      aria-label={label}
      title={label}
    >
      {children ?? (isExample ? null : value)}
      <Copy className={cn('size-3.5 opacity-50 group-hover:opacity-100', iconClassName)} aria-hidden="true" />
    </button>
  );
}
