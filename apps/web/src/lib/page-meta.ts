import { type PublicPath, prerenderedPages } from '@simcode/contract';
import { i18n } from '@/i18n/index';

export interface PageMeta {
  /** The page's part of the tab title ('<title> | <app name>'). */
  title: string;
  /** The search-result and link-preview description. */
  description: string;
  /**
   * When the prerendered page becomes the app. Content pages and the account forms work as plain HTML until
   * then (links, anchors, the FAQ's disclosure widgets and typing are native; a form's submission is held
   * and replayed), so they wait for the visitor's first interaction and their first paint is the HTML and
   * the bootstrap alone (ADR 0034). Pages whose content the app fetches start at once.
   */
  hydrate: 'on-load' | 'on-interaction';
}

const HYDRATE: Record<PublicPath, PageMeta['hydrate']> = {
  '/': 'on-interaction',
  '/faq': 'on-interaction',
  // Its table is fetched by the app: started at once, so the figures show without an interaction.
  '/stats': 'on-load',
  // The same: its components and incidents come from the open API.
  '/status': 'on-load',
  // Typing into a field, a pointer or a focus starts the form's app and, with it, the captcha.
  '/login': 'on-interaction',
  '/register': 'on-interaction',
};

/** Head tags of a public page in the current language; scripts/prerender.ts writes them into its HTML. */
export function publicPageMeta(page: PublicPath): PageMeta {
  const name = prerenderedPages[page];
  return {
    title: i18n.t(`common:meta.${name}.title`),
    description: i18n.t(`common:meta.${name}.description`),
    hydrate: HYDRATE[page],
  };
}
