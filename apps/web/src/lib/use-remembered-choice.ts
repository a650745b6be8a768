import { useState } from 'react';
import { browserStorage } from './browser-storage';

/**
 * One of `choices`, as this browser chose it last (stored under `key`), `fallback` until it chose; `opened`,
 * when given, wins for this page (a link that opens the page a certain way). Choosing remembers it.
 */
export function useRememberedChoice<Choice extends string>(
  key: string,
  choices: readonly Choice[],
  fallback: Choice,
  opened?: Choice,
) {
  const [choice, setChoice] = useState<Choice>(() => {
    if (opened) return opened;
    const saved = browserStorage()?.getItem(key);
    return choices.find((known) => known === saved) ?? fallback;
  });
  function choose(next: Choice) {
    browserStorage()?.setItem(key, next);
    setChoice(next);
  }
  return [choice, choose] as const;
}
