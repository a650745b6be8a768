import { LifeBuoy, Link2, MessageCircle, Search } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type FaqEntry, type FaqTopic, faqTopics } from '@/components/faq/faq-data';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { publicPageMeta } from '@/lib/page-meta';
import { publicConfig } from '@/lib/public-config';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Lower case without accents or typographic quotes, so 'VoIP', 'voip', '“VoIP”' and '«VoIP»' all match. */
function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f“”"'’«»]/g, '')
    .toLowerCase();
}

function matches(entry: FaqEntry, terms: readonly string[]): boolean {
  const text = normalize(`${entry.question} ${entry.answer.join(' ')}`);
  return terms.every((term) => text.includes(term));
}

function filterTopics(query: string): FaqTopic[] {
  const terms = normalize(query).split(/\s+/).filter(Boolean);
  return faqTopics
    .map((topic) => ({ ...topic, entries: topic.entries.filter((entry) => matches(entry, terms)) }))
    .filter((topic) => topic.entries.length > 0);
}

/** One question with its answer, addressable as /faq#<id>. */
function FaqArticle({ entry }: { entry: FaqEntry }) {
  const { t } = useTranslation('faq');
  return (
    <article
      id={entry.id}
      aria-labelledby={`${entry.id}-question`}
      className="scroll-mt-20 rounded-2xl border bg-white p-5 shadow-xs transition-colors target:border-indigo-300 target:bg-indigo-50/60 target:ring-2 target:ring-indigo-200 sm:p-6"
    >
      <div className="flex items-start justify-between gap-4">
        <h3 id={`${entry.id}-question`} className="text-lg font-semibold text-slate-900">
          {entry.question}
        </h3>
        <a
          href={`#${entry.id}`}
          className="-m-1 shrink-0 rounded-md p-1 text-slate-500 transition-colors hover:bg-slate-100 hover:text-primary"
          aria-label={t('linkTo', { question: entry.question })}
        >
          <Link2 className="size-4" aria-hidden="true" />
        </a>
      </div>
      <div className="mt-2 flex flex-col gap-3 leading-relaxed text-slate-600">
        {entry.answer.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </article>
  );
}

export function FaqPage() {
  useDocumentTitle(publicPageMeta('/faq').title);
  const { t } = useTranslation('faq');
  const { supportChatUrl } = publicConfig();
  const [query, setQuery] = useState('');

  const topics = filterTopics(query);
  const found = topics.reduce((count, topic) => count + topic.entries.length, 0);
  const searching = query.trim() !== '';

  return (
    <main className="flex-1">
      <div className="bg-gradient-to-b from-indigo-50 via-white to-white px-4 pt-28 pb-10 sm:px-6 sm:pt-36">
        <div className="mx-auto max-w-3xl text-center">
          <h1 className="text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl">
            {t('title')}
          </h1>
          <p className="mt-4 text-lg text-pretty text-slate-600">{t('intro')}</p>
          <search className="relative mx-auto mt-8 block max-w-xl">
            <label htmlFor="faq-search" className="sr-only">
              {t('search.label')}
            </label>
            <Search
              className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-slate-500"
              aria-hidden="true"
            />
            <Input
              id="faq-search"
              type="search"
              placeholder={t('search.placeholder')}
              autoComplete="off"
              aria-describedby="faq-search-result"
              onChange={(event) => setQuery(event.target.value)}
              className="h-12 rounded-xl bg-white pl-12 text-base shadow-sm md:text-base"
            />
          </search>
          <p id="faq-search-result" aria-live="polite" className="mt-3 min-h-5 text-sm text-slate-600">
            {searching && t('search.found', { count: found })}
          </p>
          <nav aria-label={t('topicsLabel')} className="mt-4 flex flex-wrap justify-center gap-2">
            {faqTopics.map((topic) => (
              <a
                key={topic.id}
                href={`#${topic.id}`}
                className="rounded-full border bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-xs transition-colors hover:border-indigo-300 hover:text-primary"
              >
                {topic.title}
              </a>
            ))}
          </nav>
        </div>
      </div>

      <div className="mx-auto flex max-w-3xl flex-col gap-12 px-4 pt-6 pb-20 sm:px-6">
        {topics.map((topic) => (
          <section key={topic.id} aria-labelledby={topic.id} className="flex flex-col gap-4">
            <h2 id={topic.id} className="scroll-mt-20 text-2xl font-bold tracking-tight text-slate-900">
              {topic.title}
            </h2>
            {topic.entries.map((entry) => (
              <FaqArticle key={entry.id} entry={entry} />
            ))}
          </section>
        ))}
        {topics.length === 0 && (
          <p className="rounded-2xl border border-dashed bg-white p-8 text-center text-slate-600">
            {t('search.none', { query: query.trim() })}
          </p>
        )}

        <aside
          aria-labelledby="faq-help-title"
          className="rounded-2xl bg-slate-900 px-6 py-8 scheme-light text-center text-slate-300 sm:px-10"
        >
          <h2 id="faq-help-title" className="text-xl font-semibold text-white">
            {t('help.title')}
          </h2>
          <p className="mt-2">{t('help.text')}</p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild className="bg-white text-slate-900 hover:bg-slate-100">
              <Link to="/dashboard/tickets">
                <LifeBuoy aria-hidden="true" />
                {t('common:support.contact')}
              </Link>
            </Button>
            <Button asChild variant="ghost" className="text-slate-200 hover:bg-white/10 hover:text-white">
              <a href={supportChatUrl} target="_blank" rel="noopener noreferrer">
                <MessageCircle aria-hidden="true" />
                {t('common:support.chat')}
                <span className="sr-only">{t('common:newTab')}</span>
              </a>
            </Button>
          </div>
        </aside>
      </div>
    </main>
  );
}
