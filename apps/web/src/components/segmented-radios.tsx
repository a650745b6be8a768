import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * A short choice of ways to see or do one thing ("By country" or "By service", "Popular first" or "A–Z"):
 * native radios drawn as a segmented control, so arrow keys switch and the choice is read out.
 */
export function SegmentedRadios<Value extends string>({
  name,
  legend,
  showLegend = false,
  options,
  value,
  onChange,
}: {
  /** The radios' form name: one per control on a page. */
  name: string;
  legend: string;
  /** The legend shows before the options; otherwise it is read to screen readers only. */
  showLegend?: boolean;
  options: ReadonlyArray<{ value: Value; label: string; Icon?: LucideIcon }>;
  value: Value;
  onChange(value: Value): void;
}) {
  return (
    <fieldset className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
      <legend
        className={showLegend ? 'float-left mr-1 text-sm font-medium text-muted-foreground' : 'sr-only'}
      >
        {legend}
      </legend>
      <div className="inline-flex rounded-lg border bg-muted p-1">
        {options.map(({ value: option, label, Icon }) => (
          <label
            key={option}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              value === option && 'bg-white text-foreground shadow-sm',
            )}
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="sr-only"
            />
            {Icon && <Icon className="size-4" aria-hidden="true" />}
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
