import { DEFAULT_LANGUAGE } from '@simcode/contract';
import { FileDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { POLICIES_EFFECTIVE, type Policy, type PolicyId, TERMS_PDF_PATH } from './policies';

/** A policy as a modal dialog: Escape or the close buttons end it, and focus returns to its opener. */
export default function PolicyDialog({
  policy,
  open,
  onOpenChange,
}: {
  policy: PolicyId;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t, i18n } = useTranslation('legal');
  const { title, sections } = t(policy, { returnObjects: true }) as Policy;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl gap-0 p-0">
        <DialogHeader className="border-b px-6 pt-6 pb-4">
          <DialogTitle className="text-xl">{title}</DialogTitle>
          <DialogDescription>{t('effective', { year: POLICIES_EFFECTIVE })}</DialogDescription>
          {/* The PDF is typeset in English only (its built-in fonts have no Cyrillic or Chinese), and that
              text is the one that binds. */}
          {i18n.language !== DEFAULT_LANGUAGE && <p className="text-sm text-slate-600">{t('bindingNote')}</p>}
        </DialogHeader>
        {/* Focusable, so a keyboard user can scroll to the end of the text with the arrow and page keys
            (WCAG 2.1.1); named, so a screen reader says what the stop is. */}
        <section
          className="max-h-[60dvh] overflow-y-auto px-6 py-5 focus-visible:outline-offset-[-2px]"
          aria-label={title}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to be scrolled by keyboard.
          tabIndex={0}
        >
          {sections.map((section) => (
            <section key={section.heading} className="mb-5 last:mb-0">
              <h3 className="font-semibold text-foreground">{section.heading}</h3>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="mt-1.5 text-sm leading-relaxed text-slate-600">
                  {paragraph}
                </p>
              ))}
            </section>
          ))}
        </section>
        <DialogFooter className="border-t px-6 py-4">
          <Button variant="outline" asChild>
            <a href={TERMS_PDF_PATH} type="application/pdf">
              <FileDown aria-hidden="true" />
              {t('downloadPdf')}
            </a>
          </Button>
          <Button onClick={() => onOpenChange(false)}>{t('close')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
