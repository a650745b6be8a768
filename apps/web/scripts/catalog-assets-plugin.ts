import { existsSync, readFileSync } from 'node:fs';
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
  const slugs = [
    ...new Set([...catalog.services, ...catalog.rentServices].map((service) => service.icon)),
  ].filter((slug): slug is string => slug !== null && existsSync(path.join(simpleIconsDir, `${slug}.svg`)));
  const imports = slugs.map(
    (slug, index) =>
      `import icon${index} from ${JSON.stringify(`${path.join(simpleIconsDir, slug)}.svg?url&no-inline`)};`,
  );
  const entries = slugs.map(
    (slug, index) =>
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
