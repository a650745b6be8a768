import { Copy } from 'lucide-react';
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
import { apiPageTexts } from './texts';

const texts = apiPageTexts.createdDialog;

function SecretLine({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <p className="text-sm font-medium">{label}</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">
          {value}
        </code>
        <Button type="button" variant="outline" size="icon" onClick={() => copyToClipboard(value, label)}>
          <Copy className="size-4" aria-hidden="true" />
          <span className="sr-only">
            {texts.copy} {label}
          </span>
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
  return (
    <Dialog open={created !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{texts.title}</DialogTitle>
          <DialogDescription>{texts.body}</DialogDescription>
        </DialogHeader>
        {created && (
          <div className="flex flex-col gap-4">
            <SecretLine label={texts.key} value={created.secret} />
            <SecretLine label={texts.secret} value={created.webhookSecret} />
          </div>
        )}
        <DialogFooter>
          <Button type="button" onClick={onClose}>
            {texts.done}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
