import { Tabs } from 'radix-ui';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/copy-button';

/**
 * A code example with a copy button. Lines are never wrapped (a browser would also break after a hyphen or
 * inside a URL, and a wrapped command or key is misread and mistyped): a longer line scrolls, and the block
 * takes the focus so a keyboard can scroll it too.
 */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <section aria-label={label} className="relative min-w-0">
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className="overflow-x-auto rounded-md bg-slate-950 scheme-light py-2 pr-10 pl-3 text-xs leading-relaxed whitespace-pre text-slate-100"
      >
        <code>{code}</code>
      </pre>
      <CopyButton
        value={code}
        what="Example"
        className="absolute top-1 right-1 p-2 text-slate-300 hover:text-white"
        iconClassName="opacity-80"
      />
    </section>
  );
}

export const exampleLanguages = ['curl', 'javascript', 'python'] as const;
export type ExampleLanguage = (typeof exampleLanguages)[number];
export type Examples = Record<ExampleLanguage, string>;

const LanguageChoice = createContext<{ language: ExampleLanguage; choose(language: ExampleLanguage): void }>({
  language: 'curl',
  choose: () => {},
});

/** The language picked in one set of tabs is the one every set shows. */
export function ExampleLanguageProvider({ children }: { children: ReactNode }) {
  const [language, choose] = useState<ExampleLanguage>('curl');
  return <LanguageChoice.Provider value={{ language, choose }}>{children}</LanguageChoice.Provider>;
}

/** One call in curl, JavaScript (the generated client) and Python (requests), in tabs. */
export function ExampleTabs({ examples, label }: { examples: Examples; label: string }) {
  const { t } = useTranslation('apiDocs');
  const { language, choose } = useContext(LanguageChoice);
  return (
    <Tabs.Root
      value={language}
      onValueChange={(value) => choose(value as ExampleLanguage)}
      className="min-w-0"
    >
      <Tabs.List aria-label={t('json.languages', { what: label })} className="flex gap-1">
        {exampleLanguages.map((each) => (
          <Tabs.Trigger
            key={each}
            value={each}
            className="rounded-t-md px-3 py-1.5 text-xs font-medium text-slate-600 data-[state=active]:bg-slate-950 data-[state=active]:text-slate-100"
          >
            {t(`json.language.${each}`)}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {exampleLanguages.map((each) => (
        <Tabs.Content key={each} value={each} tabIndex={-1}>
          <CodeBlock code={examples[each]} label={`${label} (${t(`json.language.${each}`)})`} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
