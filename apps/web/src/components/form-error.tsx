import { AlertCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';

/** A form's error, which the form points to with aria-describedby. */
export function FormError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Alert variant="destructive" id={id}>
      <AlertCircle aria-hidden="true" />
      <AlertDescription>{children}</AlertDescription>
    </Alert>
  );
}
