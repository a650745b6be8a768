import type { prerenderedPages } from '@simcode/contract';

export type PublicPath = keyof typeof prerenderedPages;

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

/** Head tags of the public pages; scripts/prerender.ts writes them into each page's HTML. */
export const publicPageMeta: Record<PublicPath, PageMeta> = {
  '/': {
    title: 'Real SIM numbers for SMS verification',
    description:
      'Receive SMS verification codes on real-SIM (non-VoIP) numbers from 180+ countries for 1,000+ services. Instant activation, exclusive numbers, pay only for what you use.',
    hydrate: 'on-interaction',
  },
  '/faq': {
    title: 'Frequently Asked Questions',
    description:
      'How real-SIM numbers work: countries, the 20-minute window and automatic refunds, cancelling, long-term and renewable numbers, crypto top-ups and troubleshooting.',
    hydrate: 'on-interaction',
  },
  '/login': {
    title: 'Sign in',
    description: 'Sign in to buy real-SIM numbers and read your SMS verification codes.',
    hydrate: 'on-load',
  },
  '/register': {
    title: 'Create account',
    description:
      'Create an account to buy real-SIM numbers for SMS verification, with a USD balance topped up in crypto.',
    hydrate: 'on-load',
  },
};
