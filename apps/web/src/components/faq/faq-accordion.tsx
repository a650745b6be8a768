import { ChevronDown } from 'lucide-react';
import type { FaqEntry } from './faq-data';

/**
 * Questions that open one at a time, on the native disclosure element: operable with the keyboard and
 * readable by assistive technology before and without any script.
 */
export function FaqAccordion({ entries }: { entries: readonly FaqEntry[] }) {
  return (
    <div className="flex flex-col gap-3">
      {entries.map((entry) => (
        <details
          key={entry.id}
          name="faq"
          className="group rounded-xl border bg-white shadow-xs transition-shadow open:shadow-md"
        >
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-xl px-5 py-4 text-left font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
            {entry.question}
            <ChevronDown
              className="size-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180"
              aria-hidden="true"
            />
          </summary>
          <div className="flex flex-col gap-3 px-5 pb-5 leading-relaxed text-slate-600">
            {entry.answer.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}
