import type { Language } from '@simcode/contract';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppShell } from './app/app-shell';
import { CLIENT_ONLY_DIGEST } from './app/client-only';
import { routes } from './app/routes';
import { loadLanguage } from './i18n';

/**
 * Renders a public page to HTML at build time (scripts/prerender.ts). The markup is what the browser's
 * first render produces (the router provider of the client, signed out, the server's placeholders for
 * configured values), so the app hydrates it without repainting.
 */
export async function renderPage(pathname: string, language: Language): Promise<string> {
  await loadLanguage(language);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender.invalid${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} redirects; only pages can be prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const failures: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
    {
      onError(error) {
        if ((error as { digest?: unknown } | null)?.digest === CLIENT_ONLY_DIGEST) return CLIENT_ONLY_DIGEST;
        failures.push(error);
        return undefined;
      },
    },
  );
  if (failures.length > 0) throw failures[0];
  return new Response(prelude).text();
}

/** The app's frame as skeletons, for the routes that are not prerendered (see app/app-shell.tsx). */
export async function renderAppShell(): Promise<string> {
  const { prelude } = await prerender(<AppShell />);
  return new Response(prelude).text();
}
export { publicPageMeta } from '@/lib/page-meta';
