import countryFlags from 'virtual:country-flags';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/**
 * A country's flag (4:3) from the bundled flag-icons files, fetched only when it scrolls near the view.
 * Decorative unless `label` is given; a country without a flag file gets its code on a neutral plate.
 *
 * @param country ISO 3166-1 alpha-2 code, as the contract's catalogue has it.
 */
export function CountryFlag({
  country,
  label,
  className,
}: {
  country: string;
  label?: string;
  className?: string;
}) {
  const url = countryFlags[country.toUpperCase()];
  const frame = cn(
    'inline-block h-4 w-[1.333rem] shrink-0 rounded-[3px] shadow-[0_0_0_1px_rgb(15_23_42/0.1)]',
    className,
  );
  if (!url) {
    // The code is what sighted users see; the label, when given, is what assistive technology reads.
    return (
      <span
        className={cn(frame, 'bg-slate-200 text-center text-[0.5rem] leading-4 font-semibold text-slate-700')}
      >
        <span aria-hidden="true">{country.toUpperCase()}</span>
        {label && <span className="sr-only">{label}</span>}
      </span>
    );
  }
  return (
    <img
      src={url}
      alt={label ?? ''}
      width={20}
      height={15}
      loading="lazy"
      decoding="async"
      className={cn(frame, 'object-cover')}
    />
  );
}

/**
 * 'flag Country · detail', wrapping between its two parts and never inside them, so a phone keeps
 * "United Kingdom" beside its flag instead of leaving "· $0.65" hanging on a line of its own.
 */
export function CountryLine({ country, name, detail }: { country: string; name: string; detail: ReactNode }) {
  return (
    <p className="flex flex-wrap items-center gap-x-1.5 text-sm text-muted-foreground">
      <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
        <CountryFlag country={country} />
        {name}
      </span>
      <span className="whitespace-nowrap">
        <span aria-hidden="true">· </span>
        {detail}
      </span>
    </p>
  );
}
