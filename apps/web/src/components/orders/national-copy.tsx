import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/copy-button';
import { phoneForForms } from '@/lib/format';

/**
 * The number without its country code, to copy: a sign-up form with a separate country field takes it so.
 * Nothing where the number cannot be placed in a country.
 */
export function NationalCopy({ number }: { number: string }) {
  const { t } = useTranslation('common');
  const { national } = phoneForForms(number);
  if (!national) return null;
  return (
    <CopyButton
      value={number}
      what="National"
      className="rounded-md border px-2 py-1 text-sm hover:border-primary hover:text-primary"
    >
      {t('copy.withoutCountryCode')} <span className="font-mono">{national}</span>
    </CopyButton>
  );
}
