import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Brand icons and country flags for the catalogue, as files of this origin (the Content-Security-Policy
 * allows no other image host). Only the icons and flags the contract's catalogue names are emitted, each
 * as a content-hashed asset, and the page receives a small map from id to URL instead of the drawings:
 *
 *   import serviceIcons from 'virtual:service-icons';   // { telegram: { url, color }, ... }
 *   import countryFlags from 'virtual:country-flags';   // { GB: url, ... }
 */
const SERVICE_ICONS = 'virtual:service-icons';
const COUNTRY_FLAGS = 'virtual:country-flags';

const require = createRequire(import.meta.url);
// simple-icons exports its data file, not its package.json: the icons folder sits beside the data folder.
const simpleIconsData = require.resolve('simple-icons/icons.json');
const simpleIconsDir = path.resolve(path.dirname(simpleIconsData), '..', 'icons');
const flagsDir = path.join(path.dirname(require.resolve('flag-icons/package.json')), 'flags', '4x3');
/** Where the drawings made at build time are written, so they are imported like any other file. */
const madeIconsDir = path.resolve(import.meta.dirname, '../node_modules/.cache/simcode-service-icons');

/**
 * Marks simple-icons does not carry (their owners asked for them to be removed), from Font Awesome's free
 * brands (CC BY 4.0), with each brand's colour; the catalogue names them `fa:<name>`.
 */
const FONT_AWESOME_BRANDS: Record<string, { component: string; hex: string }> = {
  'fa:microsoft': { component: 'faMicrosoft', hex: '737373' },
  'fa:yahoo': { component: 'faYahoo', hex: '6001D2' },
  'fa:amazon': { component: 'faAmazon', hex: 'FF9900' },
  'fa:linkedin': { component: 'faLinkedin', hex: '0A66C2' },
  'fa:openai': { component: 'faOpenai', hex: '000000' },
  'fa:yandex': { component: 'faYandexInternational', hex: 'FC3F1D' },
};
/** 'Any other' is no brand: a neutral speech bubble. */
const NEUTRAL_ICONS: Record<string, { svg: string; hex: string }> = {
  'any-other': {
    svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9.5L5 21.5V18H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z" fill-rule="evenodd"/></svg>',
    hex: '475569',
  },
};

/** The file of one of the marks above, written once per build; null for a simple-icons slug. */
function madeIconFile(slug: string): string | null {
  let svg: string;
  if (NEUTRAL_ICONS[slug]) svg = NEUTRAL_ICONS[slug].svg;
  else if (FONT_AWESOME_BRANDS[slug]) {
    const { component } = FONT_AWESOME_BRANDS[slug];
    const [width, height, , , pathData] = require(`@fortawesome/free-brands-svg-icons/${component}`)
      .definition.icon as [number, number, unknown, unknown, string | string[]];
    const paths = (Array.isArray(pathData) ? pathData : [pathData]).map((d) => `<path d="${d}"/>`).join('');
    // CC BY 4.0 asks for attribution: the comment Font Awesome's own files carry travels with each drawing.
    svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}"><!-- Font Awesome Free by @fontawesome - https://fontawesome.com License - https://fontawesome.com/license/free (Icons: CC BY 4.0) -->${paths}</svg>`;
  } else if (slug.startsWith('fa:')) {
    throw new Error(`The catalogue names ${slug}, which FONT_AWESOME_BRANDS does not map`);
  } else return null;
  mkdirSync(madeIconsDir, { recursive: true });
  const file = path.join(madeIconsDir, `${slug.replace(':', '-')}.svg`);
  writeFileSync(file, svg);
  return file;
}

interface Catalog {
  services: readonly { icon: string | null }[];
  rentServices: readonly { icon: string | null }[];
  countries: readonly { id: string }[];
}

/** The contract is TypeScript source; the config loader cannot import it, tsx can. */
async function loadCatalog(): Promise<Catalog> {
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport('@simcode/contract', import.meta.url)) as Catalog;
}

function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/**
 * The brand colour, darkened until it keeps 3:1 contrast on white (WCAG's figure for graphics), so pale
 * brands such as Snapchat's yellow stay visible on a light tile.
 */
export function legibleBrandColor(hex: string): string {
  let rgb = [0, 2, 4].map((offset) => Number.parseInt(hex.slice(offset, offset + 2), 16));
  const toHex = (values: number[]) => values.map((value) => value.toString(16).padStart(2, '0')).join('');
  while (1.05 / (relativeLuminance(toHex(rgb)) + 0.05) < 3) rgb = rgb.map((value) => Math.floor(value * 0.9));
  return `#${toHex(rgb)}`;
}

function brandColors(): Map<string, string> {
  const data = JSON.parse(readFileSync(simpleIconsData, 'utf8')) as {
    slug: string;
    hex: string;
  }[];
  return new Map(data.map((icon) => [icon.slug, icon.hex]));
}

function serviceIconsModule(catalog: Catalog): string {
  const colors = brandColors();
  for (const [slug, { hex }] of Object.entries({ ...FONT_AWESOME_BRANDS, ...NEUTRAL_ICONS }))
    colors.set(slug, hex);
  const files = [...new Set([...catalog.services, ...catalog.rentServices].map((service) => service.icon))]
    .filter((slug): slug is string => slug !== null)
    .map((slug) => ({ slug, file: madeIconFile(slug) ?? path.join(simpleIconsDir, `${slug}.svg`) }))
    .filter(({ file }) => existsSync(file));
  const imports = files.map(
    ({ file }, index) => `import icon${index} from ${JSON.stringify(`${file}?url&no-inline`)};`,
  );
  const entries = files.map(
    ({ slug }, index) =>
      `${JSON.stringify(slug)}: { url: icon${index}, color: ${JSON.stringify(legibleBrandColor(colors.get(slug) ?? '334155'))} }`,
  );
  return `${imports.join('\n')}\nexport default {\n${entries.join(',\n')}\n};\n`;
}

function countryFlagsModule(catalog: Catalog): string {
  const ids = catalog.countries
    .map((country) => country.id)
    .filter((id) => existsSync(path.join(flagsDir, `${id.toLowerCase()}.svg`)));
  const imports = ids.map(
    (id, index) =>
      `import flag${index} from ${JSON.stringify(`${path.join(flagsDir, id.toLowerCase())}.svg?url&no-inline`)};`,
  );
  const entries = ids.map((id, index) => `${JSON.stringify(id)}: flag${index}`);
  return `${imports.join('\n')}\nexport default {\n${entries.join(',\n')}\n};\n`;
}

export function catalogAssets(): Plugin {
  let catalog: Promise<Catalog> | undefined;
  return {
    name: 'simcode-catalog-assets',
    resolveId(id) {
      return id === SERVICE_ICONS || id === COUNTRY_FLAGS ? `\0${id}` : undefined;
    },
    async load(id) {
      if (id !== `\0${SERVICE_ICONS}` && id !== `\0${COUNTRY_FLAGS}`) return undefined;
      catalog ??= loadCatalog();
      return id === `\0${SERVICE_ICONS}`
        ? serviceIconsModule(await catalog)
        : countryFlagsModule(await catalog);
    },
  };
}
