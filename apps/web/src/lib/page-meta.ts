import { type PublicPath, prerenderedPages } from '@simcode/contract';
import { i18n } from '@/i18n/index';

export interface PageMeta {
  /** The page's part of the tab title ('<title> | <app name>'). */
  title: string;
  /** The search-result and link-preview description. */
  description: string;
  /**
   * When the prerendered page becomes the app. Content pages work as plain HTML (links, anchors and the
   * FAQ's disclosure widgets are native), so they wait for the visitor's first interaction; forms start at
   * once, so that the captcha is ready and a submission is handled as soon as possible.
   */
  hydrate: 'on-load' | 'on-interaction';
}

const HYDRATE: Record<PublicPath, PageMeta['hydrate']> = {
  '/': 'on-interaction',
  '/faq': 'on-interaction',
  '/login': 'on-load',
  '/register': 'on-load',
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
