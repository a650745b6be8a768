import { Link } from 'react-router';
import { publicPath } from '@/i18n';
import { publicConfig } from '@/lib/public-config';
import { cn } from '@/lib/utils';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="8" fill="#4338ca" />
      <path
        d="M11 7h8l4 4v14a2 2 0 0 1-2 2H11a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2z"
        fill="none"
        stroke="#fff"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path d="M13 17h6M13 21h4" stroke="#a5f3fc" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function Logo({
  className,
  markOnlyOnPhones = false,
}: {
  className?: string;
  /** The mark alone below 640 px (the name stays for screen readers): the signed-in bar needs the room. */
  markOnlyOnPhones?: boolean;
}) {
  return (
    <Link
      to={publicPath('/')}
      className={cn('flex items-center gap-2 rounded-md font-bold tracking-tight text-foreground', className)}
    >
      <LogoMark />
      <span className={cn('text-lg', markOnlyOnPhones && 'sr-only sm:not-sr-only')}>
        {publicConfig().appName}
      </span>
    </Link>
  );
}
