import { Copy, Download, TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { i18n } from '@/i18n';
import { copyToClipboard } from '@/lib/copy';
import { publicConfig } from '@/lib/public-config';

function fileText(codes: string[], username: string): string {
  const { appName } = publicConfig();
  return [
    i18n.t('account:recoveryCodes.fileTitle', { appName, username }),
    i18n.t('account:recoveryCodes.fileMade', {
      time: new Date().toISOString().slice(0, 16).replace('T', ' '),
    }),
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(codes: string[], username: string): void {
  const url = URL.createObjectURL(new Blob([fileText(codes, username)], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${publicConfig()
    .appName.toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')}-recovery-codes.txt`;
  link.click();
  // Released later: the browser reads the file after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The recovery codes, shown this once (the server keeps only their hashes). Focus moves to the panel so
 * a screen reader reads the warning first.
 */
export function RecoveryCodes({
  codes,
  username,
  onDone,
}: {
  codes: string[];
  username: string;
  onDone(): void;
}) {
  const { t } = useTranslation('account');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="flex flex-col gap-4 rounded-lg border border-yellow-300 bg-white p-4">
      <h3 ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
        {t('recoveryCodes.title')}
      </h3>
      <Alert variant="warning" role="none">
        <TriangleAlert aria-hidden="true" />
        <AlertDescription>
          <p>
            <Trans t={t} i18nKey="recoveryCodes.warning" components={{ strong: <strong /> }} />
          </p>
        </AlertDescription>
      </Alert>
      <ol
        aria-label={t('recoveryCodes.list')}
        className="grid grid-cols-2 gap-2 font-mono text-sm"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-muted px-3 py-2 text-center tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() =>
            copyToClipboard(codes.join('\n'), t('recoveryCodes.copiedWhat'), { showText: false })
          }
        >
          <Copy aria-hidden="true" />
          {t('recoveryCodes.copyAll')}
        </Button>
        <Button variant="outline" onClick={() => download(codes, username)}>
          <Download aria-hidden="true" />
          {t('recoveryCodes.download')}
        </Button>
        <Button onClick={onDone}>{t('recoveryCodes.done')}</Button>
      </div>
    </div>
  );
}
