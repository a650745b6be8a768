// Renders the public pages (/, /faq, /login, /register, and each under /ru/ and /zh/) to HTML after `vite build`, so their content shows
// before any script runs, and the app's shell (its frame as skeletons) for every other route. Each page is the built shell with the page's markup in #root, its own title,
// description, canonical URL and Open Graph tags, and, for pages that start the app at once, preloads of
// the app's chunks. The server fills the placeholders (name, URLs, configured figures) when it serves it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  APP_NAME_PLACEHOLDER,
  APP_SHELL_FILE,
  LANGUAGE_TAGS,
  LANGUAGES,
  type Language,
  localizedPublicPages,
  localizedPublicPath,
  PUBLIC_URL_PLACEHOLDER,
  type PublicPath,
  prerenderedPages,
} from '@simcode/contract';
import { build, type Manifest, type Plugin } from 'vite';
import type { PageMeta } from '../src/lib/page-meta.ts';
import { webOutDir } from './out-dir';

const webRoot = path.resolve(import.meta.dirname, '..');
const outDir = webOutDir();
const src = (file: string) => path.join(webRoot, 'src', file);

/**
 * Modules that need a browser to even load (the captcha widgets define custom elements). On the server
 * they throw the client-only error, so React ships their Suspense fallback and renders them in the browser.
 */
const CLIENT_ONLY_MODULES = new Set([
  src('features/auth/altcha-widget.tsx'),
  src('features/auth/hosted-captcha.tsx'),
]);

function clientOnlyModules(): Plugin {
  return {
    name: 'simcode-client-only-modules',
    enforce: 'pre',
    load(id) {
      if (!CLIENT_ONLY_MODULES.has(id.split('?')[0]!)) return undefined;
      return [
        `import { CLIENT_ONLY_DIGEST } from ${JSON.stringify(src('app/client-only.ts'))};`,
        'export default function ClientOnly() {',
        "  throw Object.assign(new Error('Rendered in the browser only.'), { digest: CLIENT_ONLY_DIGEST });",
        '}',
      ].join('\n');
    },
  };
}

interface ServerEntry {
  renderPage(pathname: string, language: Language): Promise<string>;
  renderAppShell(): Promise<string>;
  publicPageMeta(page: PublicPath): PageMeta;
}

/** Builds src/entry-server.tsx for Node, beside node_modules so its dependencies resolve, and loads it. */
async function loadServerEntry(): Promise<{ entry: ServerEntry; cleanUp(): void }> {
  const cacheDir = path.join(webRoot, 'node_modules', '.cache');
  mkdirSync(cacheDir, { recursive: true });
  const ssrOutDir = mkdtempSync(path.join(cacheDir, 'prerender-'));
  await build({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'warn',
    plugins: [clientOnlyModules()],
    build: {
      ssr: 'src/entry-server.tsx',
      outDir: ssrOutDir,
      emptyOutDir: true,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'entry-server.js' } },
    },
  });
  const entry = (await import(pathToFileURL(path.join(ssrOutDir, 'entry-server.js')).href)) as ServerEntry;
  return { entry, cleanUp: () => rmSync(ssrOutDir, { recursive: true, force: true }) };
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** Replaces exactly one match, so a changed index.html fails the build instead of shipping stale tags. */
function replaceOnce(html: string, pattern: RegExp, replacement: string): string {
  const found = html.match(new RegExp(pattern, 'g'))?.length ?? 0;
  if (found !== 1) throw new Error(`index.html: expected one ${pattern}, found ${found}`);
  return html.replace(pattern, () => replacement);
}

/** The chunks a module needs (itself and its static imports, transitively), as file names. */
function chunkClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build manifest has no ${key}`);
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunkClosure(manifest, imported, seen);
  return seen;
}

function pageHtml(
  shell: string,
  page: PublicPath,
  language: Language,
  meta: PageMeta,
  appHtml: string,
  preloads: readonly string[],
): string {
  const title = escapeAttribute(`${meta.title} | ${APP_NAME_PLACEHOLDER}`);
  const description = escapeAttribute(meta.description);
  const url = `${PUBLIC_URL_PLACEHOLDER}${localizedPublicPath(page, language)}`;
  // Search engines show each visitor the page in their language; English answers everyone else.
  const alternates = [
    ...LANGUAGES.map(
      (other) =>
        `<link rel="alternate" hreflang="${LANGUAGE_TAGS[other]}" href="${PUBLIC_URL_PLACEHOLDER}${localizedPublicPath(page, other)}" />`,
    ),
    `<link rel="alternate" hreflang="x-default" href="${PUBLIC_URL_PLACEHOLDER}${page}" />`,
  ];
  let html = replaceOnce(shell, /<html lang="en">/, `<html lang="${LANGUAGE_TAGS[language]}">`);
  html = replaceOnce(html, /<title>[^<]*<\/title>/, `<title>${title}</title>`);
  html = replaceOnce(
    html,
    /<meta name="description" content="[^"]*"/,
    `<meta name="description" content="${description}"`,
  );
  html = replaceOnce(
    html,
    /<meta property="og:title" content="[^"]*"/,
    `<meta property="og:title" content="${title}"`,
  );
  html = replaceOnce(
    html,
    /<meta property="og:description" content="[^"]*"/,
    `<meta property="og:description" content="${description}"`,
  );
  const headTags = [
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:locale" content="${LANGUAGE_TAGS[language].replace('-', '_')}" />`,
    ...alternates,
    ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`),
  ];
  html = replaceOnce(html, /<\/head>/, `  ${headTags.join('\n    ')}\n  </head>`);
  return replaceOnce(
    html,
    /<div id="root"><!--app-html--><\/div>/,
    `<div id="root" data-hydrate="${meta.hydrate}">${appHtml}</div>`,
  );
}

const manifestFile = path.join(outDir, '.vite', 'manifest.json');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
const shell = readFileSync(path.join(outDir, 'index.html'), 'utf8');
// index.html preloads the entry's own imports already; a page that starts the app at once also wants the app.
const entryChunks = chunkClosure(manifest, 'index.html');
const appChunks = [...chunkClosure(manifest, 'src/app/start-app.tsx')].filter(
  (file) => !entryChunks.has(file),
);

const { entry, cleanUp } = await loadServerEntry();
try {
  for (const { page, language, path: pathname } of localizedPublicPages) {
    const appHtml = await entry.renderPage(pathname, language);
    const meta = entry.publicPageMeta(page);
    const preloads = meta.hydrate === 'on-load' ? appChunks : [];
    const file = path.join('pages', language, `${prerenderedPages[page]}.html`);
    mkdirSync(path.join(outDir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(outDir, file), pageHtml(shell, page, language, meta, appHtml, preloads));
    console.log(`prerendered ${pathname} → ${file}`);
  }
  // Every other route: the shell with the app's frame as skeletons, which the app replaces on start.
  const appShell = replaceOnce(
    shell,
    /<div id="root"><!--app-html--><\/div>/,
    `<div id="root" data-shell=""><!--shell-->${await entry.renderAppShell()}<!--/shell--></div>`,
  );
  writeFileSync(path.join(outDir, APP_SHELL_FILE), appShell);
  console.log(`prerendered the app's shell → ${APP_SHELL_FILE}`);
} finally {
  cleanUp();
}
// The manifest has served its purpose; it is not part of the site.
rmSync(path.dirname(manifestFile), { recursive: true, force: true });
