// Fails when a catalogue lacks a text English has (or has one English does not), when a translation drops
// a placeholder, or when a component writes a user-facing text in place instead of reading a catalogue.
// `node scripts/check-i18n.mjs [files…]` checks the catalogues and the given source files (default: all).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'rolldown/parseAst';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LANGUAGES = ['en', 'ru', 'zh'];
const problems = [];

/** Catalogue folders: each holds one JSON per language, or one folder per language of namespace files. */
const CATALOGUES = [
  'packages/contract/src/i18n/locales',
  'apps/web/src/locales',
  'apps/server/src/modules/mail/locales',
];

function flatten(value, prefix = '', into = new Map()) {
  for (const [key, child] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (child !== null && typeof child === 'object') flatten(child, name, into);
    else into.set(name, child);
  }
  return into;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** A catalogue's texts with plural variants folded into their base key. */
function fold(texts) {
  const folded = new Map();
  for (const [key, text] of texts) {
    const base = key.replace(PLURAL, '');
    const entry = folded.get(base) ?? { variants: new Set(), texts: [] };
    if (PLURAL.test(key)) entry.variants.add(key.match(PLURAL)[1]);
    entry.texts.push(String(text));
    folded.set(base, entry);
  }
  return folded;
}

const placeholders = (text) => new Set([...text.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]));

function compare(where, byLanguage) {
  const english = fold(byLanguage.en ?? new Map());
  for (const language of LANGUAGES.filter((other) => other !== 'en')) {
    const other = fold(byLanguage[language] ?? new Map());
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const [key, entry] of english) {
      const translated = other.get(key);
      if (!translated) {
        problems.push(`${where}: ${language} lacks "${key}"`);
        continue;
      }
      if (entry.variants.size > 0) {
        const missing = categories.filter((category) => !translated.variants.has(category));
        // 'other' is only reached by fractions in Russian; the integer forms are the ones a text needs.
        const needed = missing.filter((category) => !(language === 'ru' && category === 'other'));
        if (needed.length > 0)
          problems.push(`${where}: ${language} "${key}" lacks plural forms ${needed.join(', ')}`);
      }
      const wanted = new Set(entry.texts.flatMap((text) => [...placeholders(text)]));
      const given = new Set(translated.texts.flatMap((text) => [...placeholders(text)]));
      for (const name of wanted) {
        if (name !== 'count' && !given.has(name))
          problems.push(`${where}: ${language} "${key}" drops {{${name}}}`);
      }
    }
    for (const key of other.keys()) {
      if (!english.has(key)) problems.push(`${where}: ${language} has "${key}", which English does not`);
    }
  }
}

for (const folder of CATALOGUES) {
  const dir = path.join(root, folder);
  if (!statSync(dir, { throwIfNoEntry: false })) continue;
  const read = (file) => flatten(JSON.parse(readFileSync(file, 'utf8')));
  if (statSync(path.join(dir, 'en'), { throwIfNoEntry: false })?.isDirectory()) {
    const namespaces = new Set(LANGUAGES.flatMap((language) => readdirSync(path.join(dir, language))));
    for (const file of namespaces) {
      const byLanguage = {};
      for (const language of LANGUAGES) {
        const full = path.join(dir, language, file);
        if (statSync(full, { throwIfNoEntry: false })) byLanguage[language] = read(full);
      }
      compare(`${folder}/*/${file}`, byLanguage);
    }
  } else {
    const byLanguage = {};
    for (const language of LANGUAGES) byLanguage[language] = read(path.join(dir, `${language}.json`));
    compare(`${folder}/*.json`, byLanguage);
  }
}

// Texts in place. A text is anything with a word in it (two letters running), other than the few tokens
// that read the same in every language.
const SAME_IN_EVERY_LANGUAGE = /^(API|SMS|USD|USDT|ID|PDF|CSV|JSON|URL|HTTPS?|TOTP|2FA|OK|VoIP|SIM|IP)$/;
const isText = (value) =>
  value.split(/[^\p{L}\d]+/u).some((word) => /\p{L}{2,}/u.test(word) && !SAME_IN_EVERY_LANGUAGE.test(word));
/** Attributes and object properties that carry what people read. */
const TEXT_NAMES = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'title',
  'alt',
  'placeholder',
  'label',
  'description',
  'hint',
  'heading',
  'summary',
  'question',
  'answer',
  'text',
  'message',
  'emptyText',
]);
const TOAST_CALLS = /^(toast(\.\w+)?|announce|confirm|alert)$/;

function calleeName(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed)
    return `${calleeName(node.object)}.${node.property.name}`;
  return '';
}

function literalText(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((quasi) => quasi.value.cooked).join(' ');
  return null;
}

function scan(file) {
  const source = readFileSync(file, 'utf8');
  const lines = source.split('\n');
  const lineOf = (offset) => source.slice(0, offset).split('\n').length;
  const report = (node, text) => {
    const line = lineOf(node.start);
    if (/i18n-ignore/.test(lines[line - 2] ?? '') || /i18n-ignore/.test(lines[line - 1] ?? '')) return;
    problems.push(
      `${path.relative(root, file)}:${line}: text in place: ${JSON.stringify(text.trim().slice(0, 60))}`,
    );
  };
  const ast = parseAst(source, { lang: file.endsWith('x') ? 'tsx' : 'ts' });
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    switch (node.type) {
      case 'JSXText':
        if (isText(node.value)) report(node, node.value);
        break;
      case 'JSXExpressionContainer': {
        const text = literalText(node.expression);
        if (parent?.type !== 'JSXAttribute' && text !== null && isText(text)) report(node, text);
        break;
      }
      case 'JSXAttribute': {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : '';
        const value = node.value?.type === 'JSXExpressionContainer' ? node.value.expression : node.value;
        const text = literalText(value);
        if (TEXT_NAMES.has(name) && text !== null && isText(text)) report(node, text);
        break;
      }
      case 'Property': {
        const name = node.key?.name ?? node.key?.value;
        const text = literalText(node.value);
        if (TEXT_NAMES.has(name) && text !== null && isText(text)) report(node, text);
        break;
      }
      case 'CallExpression': {
        const text = literalText(node.arguments[0]);
        if (TOAST_CALLS.test(calleeName(node.callee)) && text !== null && isText(text)) report(node, text);
        break;
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'parent') continue;
      if (Array.isArray(child)) for (const item of child) visit(item, node);
      else if (child && typeof child === 'object') visit(child, node);
    }
  };
  visit(ast.program ?? ast, null);
}

const SOURCE_ROOT = path.join(root, 'apps/web/src');
const SKIP = /(\.test\.tsx?|\.d\.ts|fake-[\w-]+\.ts|test-setup\.ts)$/;
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !SKIP.test(entry.name) ? [full] : [];
  });
}
const given = process.argv.slice(2).map((file) => path.resolve(file));
for (const file of given.length > 0 ? given : sources(SOURCE_ROOT)) scan(file);

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\n${problems.length} problem(s). Texts belong in the catalogues (apps/web/src/locales, packages/contract/src/i18n/locales).`,
  );
  process.exit(1);
}
console.log('i18n: every catalogue is complete and no text is written in place.');
