import { Switch as SwitchPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** An on/off switch labelled by its text. */
export function LabelledSwitch({
  id,
  checked,
  onCheckedChange,
  disabled,
  label,
  className,
}: {
  id: string;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  disabled?: boolean;
  label: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <SwitchPrimitive.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        className="peer inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary"
      >
        <SwitchPrimitive.Thumb className="pointer-events-none block size-4 rounded-full bg-white shadow-sm transition-transform data-[state=checked]:translate-x-4" />
      </SwitchPrimitive.Root>
      <label
        htmlFor={id}
        className="cursor-pointer text-sm font-medium select-none peer-disabled:cursor-not-allowed peer-disabled:opacity-60"
      >
        {label}
      </label>
    </div>
  );
}
