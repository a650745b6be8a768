import { Copy } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { copyToClipboard } from '@/lib/copy';

function SecretLine({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('apiKeys');
  return (
    <div className="flex flex-col gap-1.5">
      <p className="text-sm font-medium">{label}</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">
          {value}
        </code>
        <Button type="button" variant="outline" size="icon" onClick={() => copyToClipboard(value, label)}>
          <Copy className="size-4" aria-hidden="true" />
          <span className="sr-only">{t('createdDialog.copy', { what: label })}</span>
        </Button>
      </div>
    </div>
  );
}

/** The only time the key itself is shown. */
export function CreatedKeyDialog({
  created,
  onClose,
}: {
  created: { secret: string; webhookSecret: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('apiKeys');
  return (
    <Dialog open={created !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('createdDialog.title')}</DialogTitle>
          <DialogDescription>{t('createdDialog.body')}</DialogDescription>
        </DialogHeader>
        {created && (
          <div className="flex flex-col gap-4">
            <SecretLine label={t('createdDialog.key')} value={created.secret} />
            <SecretLine label={t('createdDialog.secret')} value={created.webhookSecret} />
          </div>
        )}
        <DialogFooter>
          <Button type="button" onClick={onClose}>
            {t('createdDialog.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
