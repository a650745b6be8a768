import serviceIcons from 'virtual:service-icons';
import type { CSSProperties } from 'react';
import { cn } from '@/lib/utils';

const SIZES = {
  sm: { tile: 'size-8 rounded-lg text-xs', glyph: 'size-4' },
  md: { tile: 'size-10 rounded-xl text-sm', glyph: 'size-5' },
  lg: { tile: 'size-12 rounded-xl text-base', glyph: 'size-6' },
} as const;

/** -700 shades: letters in these keep AA contrast on a light tint of themselves. */
const MONOGRAM_COLORS = [
  '#4338ca',
  '#0369a1',
  '#047857',
  '#b45309',
  '#be123c',
  '#6d28d9',
  '#0f766e',
  '#334155',
];

/** 'Twitter (X)' → 'TX', 'Magnit' → 'M': one or two initials. */
function monogramOf(name: string): string {
  const words = name.match(/\p{L}[\p{L}\p{N}]*/gu) ?? [name];
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

function monogramColor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return MONOGRAM_COLORS[hash % MONOGRAM_COLORS.length]!;
}

/** The brand's colour, for the tile's classes below. */
function tileStyle(color: string): CSSProperties {
  return { '--brand': color } as CSSProperties;
}

/**
 * The brand's colour on a tint of it (8 %). On the dark theme a dark brand (Apple, X) would vanish, so the
 * mark is lightened towards white and the tint made stronger.
 */
const BRAND_CLASS =
  'text-(--brand) bg-[color-mix(in_oklab,var(--brand)_8%,transparent)] dark:text-[color-mix(in_oklab,var(--brand)_40%,white)] dark:bg-[color-mix(in_oklab,var(--brand)_22%,transparent)]';

/**
 * A service's brand mark on a tinted tile, from the bundled simple-icons files; a service simple-icons has
 * no mark for gets its initials instead. Decorative: show the service's name beside it.
 *
 * @param icon the catalogue's simple-icons slug, or null.
 */
export function ServiceIcon({
  name,
  icon,
  size = 'md',
  className,
}: {
  name: string;
  icon: string | null | undefined;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const brand = icon ? serviceIcons[icon] : undefined;
  const tileClass = cn(
    'inline-flex shrink-0 items-center justify-center',
    BRAND_CLASS,
    SIZES[size].tile,
    className,
  );
  if (!brand) {
    return (
      <span
        aria-hidden="true"
        className={cn(tileClass, 'font-bold tracking-tight')}
        style={tileStyle(monogramColor(name))}
      >
        {monogramOf(name)}
      </span>
    );
  }
  // The drawing is a mask over the tile's text colour, so one monochrome file serves any colour.
  const mask = `url("${brand.url}") center / contain no-repeat`;
  return (
    <span aria-hidden="true" className={tileClass} style={tileStyle(brand.color)}>
      <span className={cn('bg-current', SIZES[size].glyph)} style={{ mask, WebkitMask: mask }} />
    </span>
  );
}
