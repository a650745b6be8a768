import { LogoMark } from '@/components/logo';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * What a page of the app shows before its script arrives: the navigation bar's frame and the page's blocks
 * as skeletons. The build writes it into the HTML of every route that is not prerendered (scripts/
 * prerender.ts), so a slow connection paints the layout at once instead of a white page; the app replaces
 * it on start. Without words, so that one copy serves every language.
 */
export function AppShell() {
  return (
    <div aria-busy="true">
      <header className="fixed inset-x-0 top-0 z-40 border-b border-transparent bg-white/90">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:h-20">
          <LogoMark />
          <Skeleton className="h-5 w-24" />
          <div className="ml-auto hidden items-center gap-3 lg:flex">
            <Skeleton className="h-5 w-20" />
            <Skeleton className="h-5 w-20" />
            <Skeleton className="h-5 w-20" />
            <Skeleton className="h-9 w-28 rounded-full" />
          </div>
          <Skeleton className="ml-auto size-9 lg:hidden" />
        </div>
      </header>
      <main className="mx-auto w-full max-w-7xl px-4 pt-24 pb-16 sm:px-6 lg:pt-28">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="mt-3 h-4 w-full max-w-xl" />
        <div className="mt-6 grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <div className="flex flex-col gap-4 rounded-xl border bg-card p-4">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-2/3" />
          </div>
          <div className="hidden flex-col gap-3 rounded-xl border bg-card p-4 lg:flex">
            <Skeleton className="h-5 w-32" />
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        </div>
      </main>
    </div>
  );
}
