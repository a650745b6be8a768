import { useId } from 'react';

/**
 * A checkbox with its label and a line that explains it: the account's preferences, and "Also revoke my API
 * keys" where the owner ends every session (a password reset, a sign-out everywhere).
 */
export function CheckboxField({
  checked,
  onChange,
  label,
  hint,
  busy = false,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  hint?: string;
  /** Saving: the box shows the new value and is marked busy until the server answers. */
  busy?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-busy={busy || undefined}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary"
      />
      <label htmlFor={id} className="cursor-pointer text-sm">
        <span className="font-medium">{label}</span>
        {hint && <span className="block text-muted-foreground">{hint}</span>}
      </label>
    </div>
  );
}
