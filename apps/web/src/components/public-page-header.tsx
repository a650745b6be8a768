import { cn } from '@/lib/utils';

/** The widths the public data pages use; the body under the header takes the same one. */
export const PUBLIC_PAGE_WIDTHS = { '4xl': 'max-w-4xl', '5xl': 'max-w-5xl' } as const;

/**
 * The top of a public data page (the delivery index, the status page): the title and a sentence on a light
 * gradient, aligned with the page's body, which sits in `publicPageBodyClass` of the same width.
 */
export function PublicPageHeader({
  title,
  intro,
  width,
}: {
  title: string;
  intro: string;
  width: keyof typeof PUBLIC_PAGE_WIDTHS;
}) {
  return (
    <div className="bg-gradient-to-b from-indigo-50 via-white to-white px-4 pt-28 pb-8 sm:px-6 sm:pt-36">
      <div className={cn('mx-auto', PUBLIC_PAGE_WIDTHS[width])}>
        <h1 className="text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl">
          {title}
        </h1>
        <p className="mt-4 max-w-3xl text-lg text-pretty text-slate-600">{intro}</p>
      </div>
    </div>
  );
}
