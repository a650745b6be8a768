import { Copy, Download, TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { copyToClipboard } from '@/lib/copy';
import { publicConfig } from '@/lib/public-config';

function fileText(codes: string[], username: string): string {
  const { appName } = publicConfig();
  return [
    `${appName} recovery codes for ${username}`,
    `Made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Each code works once.`,
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
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="flex flex-col gap-4 rounded-lg border border-yellow-300 bg-white p-4">
      <h3 ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
        Your recovery codes
      </h3>
      <Alert variant="warning" role="none">
        <TriangleAlert aria-hidden="true" />
        <AlertDescription>
          <p>
            <strong>Save them now: they are shown only this once.</strong> If you lose your phone, each code
            signs you in one time instead of the app's code. Keep them somewhere safe, away from this device.
          </p>
        </AlertDescription>
      </Alert>
      <ol
        aria-label="Recovery codes"
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
        <Button variant="outline" onClick={() => copyToClipboard(codes.join('\n'), 'Recovery codes')}>
          <Copy aria-hidden="true" />
          Copy all
        </Button>
        <Button variant="outline" onClick={() => download(codes, username)}>
          <Download aria-hidden="true" />
          Download .txt
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}
