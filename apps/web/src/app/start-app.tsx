import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { loadLanguage } from '@/i18n';
import { rememberLanguage, startLanguage } from '@/i18n/preference';
import { CLIENT_ONLY_DIGEST } from './client-only';
import { routes } from './routes';

/** Loads the lazy modules of the routes matching the current URL, so the first render has the real page. */
async function resolveInitialRoutes() {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

function onRecoverableError(error: unknown) {
  if ((error as { digest?: unknown } | null)?.digest === CLIENT_ONLY_DIGEST) return;
  globalThis.reportError(error);
}

/**
 * Starts the single-page app in `container`. Public pages arrive prerendered: React attaches to their markup
 * instead of painting again, in a transition so that the work yields to the browser between components.
 */
/** The language to start in; a `lang` query is a choice made with a link, remembered and taken off the address. */
function chooseStartLanguage() {
  const language = startLanguage(window.location, navigator.languages);
  const url = new URL(window.location.href);
  if (url.searchParams.has('lang')) {
    rememberLanguage(language);
    url.searchParams.delete('lang');
    window.history.replaceState(window.history.state, '', url);
  }
  return language;
}

export async function startApp(container: HTMLElement): Promise<void> {
  await Promise.all([resolveInitialRoutes(), loadLanguage(chooseStartLanguage())]);
  const prerendered = container.firstElementChild !== null && container.dataset.shell === undefined;
  // Hydration data (empty: public pages load nothing) tells the router the page is already on screen, so it
  // leaves the scroll position alone instead of jumping to the top under a visitor who is reading.
  const router = createBrowserRouter(routes, prerendered ? { hydrationData: {} } : undefined);
  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
  if (prerendered) {
    startTransition(() => {
      hydrateRoot(container, app, { onRecoverableError });
    });
  } else {
    // The app's shell, if the page came with it, is replaced by the first render.
    delete container.dataset.shell;
    createRoot(container).render(app);
  }
}
