import {
  currentLanguage,
  formatCents,
  LANGUAGE_TAGS,
  type Language,
  publicPriceMessages,
  statsServicePath,
} from '@simcode/contract';
import { escapeHtml } from '../../lib/html';

/** A service's offers now, as the catalog has them: what its public price list shows. */
export interface ServicePrices {
  service: { id: string; name: string };
  countries: ReadonlyArray<{ countryID: string; name: string; priceCents: number; stock: number }>;
}

/** The page's head texts and its content, in the language the caller runs in. */
export interface PricePageParts {
  title: string;
  description: string;
  canonicalPath: string;
  content: string;
}

const regionNames = new Map<Language, Intl.DisplayNames>();

/** A country's name as the reader's language writes it (the catalog's English name for English). */
function countryName(countryId: string, englishName: string): string {
  const language = currentLanguage();
  if (language === 'en') return englishName;
  let names = regionNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([LANGUAGE_TAGS[language]], { type: 'region' });
    regionNames.set(language, names);
  }
  return names.of(countryId) ?? englishName;
}

/**
 * A service's public price list as plain HTML, for the page the server sends before any script runs (search
 * engines, slow connections, readers without script): the countries in stock, cheapest first, with our
 * price and the stock, and the way to buy. The app replaces it with its own list once it starts. Classes
 * are ones the app's stylesheet already has.
 */
export function pricePageParts(prices: ServicePrices): PricePageParts {
  const language = currentLanguage();
  const number = new Intl.NumberFormat(LANGUAGE_TAGS[language]);
  const title = publicPriceMessages.title(prices.service.name);
  const offers = prices.countries
    .filter((offer) => offer.stock > 0)
    .sort((a, b) => a.priceCents - b.priceCents);
  const dashboard = `/dashboard?service=${encodeURIComponent(prices.service.id)}`;
  const buy = `/register?next=${encodeURIComponent(dashboard)}`;
  const rows = offers
    .map(
      (offer) =>
        `<tr class="border-b" data-testid="price-row"><td class="p-2 font-medium">${escapeHtml(countryName(offer.countryID, offer.name))}</td>` +
        `<td class="p-2 text-right tabular-nums">${escapeHtml(formatCents(offer.priceCents))}</td>` +
        `<td class="p-2 text-right tabular-nums">${escapeHtml(number.format(offer.stock))}</td></tr>`,
    )
    .join('');
  const content =
    `<main class="mx-auto w-full max-w-7xl px-4 pt-24 pb-16 sm:px-6 lg:pt-28">` +
    `<h1 class="text-2xl font-bold tracking-tight sm:text-3xl">${escapeHtml(title)}</h1>` +
    `<p class="mt-1 max-w-2xl text-sm text-muted-foreground sm:text-base">${escapeHtml(publicPriceMessages.description)}</p>` +
    `<p class="mt-4"><a class="font-medium text-primary underline underline-offset-2" href="${escapeHtml(buy)}">${escapeHtml(publicPriceMessages.buy)}</a></p>` +
    `<table class="mt-4 w-full text-sm"><caption class="sr-only">${escapeHtml(title)}</caption>` +
    `<thead><tr class="border-b"><th scope="col" class="p-2 text-left">${escapeHtml(publicPriceMessages.country)}</th>` +
    `<th scope="col" class="p-2 text-right">${escapeHtml(publicPriceMessages.price)}</th>` +
    `<th scope="col" class="p-2 text-right">${escapeHtml(publicPriceMessages.stock)}</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></main>`;
  return {
    title,
    description: publicPriceMessages.description,
    canonicalPath: statsServicePath(prices.service.id, language),
    content,
  };
}
