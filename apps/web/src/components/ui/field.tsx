import type { ReactNode } from 'react';
import { Label } from './label';

/** The id of a field's own error line, for the control's aria-describedby. */
export function fieldErrorId(id: string): string {
  return `${id}-error`;
}

/**
 * A labelled form control with an optional line under it (a hint or a character count) and its own error,
 * which the control points to (`aria-describedby={fieldErrorId(id)}`, `aria-invalid`).
 */
export function Field({
  id,
  label,
  children,
  below,
  error,
}: {
  /** The control's id, so the label clicks through to it. */
  id: string;
  label: string;
  children: ReactNode;
  below?: ReactNode;
  error?: string;
}) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error && (
        <p id={fieldErrorId(id)} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      {below}
    </div>
  );
}
