import type { ReactNode } from 'react';
import { Label } from './label';

/** A labelled form control with an optional line under it (a hint or a character count). */
export function Field({
  id,
  label,
  children,
  below,
}: {
  /** The control's id, so the label clicks through to it. */
  id: string;
  label: string;
  children: ReactNode;
  below?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {below}
    </div>
  );
}
