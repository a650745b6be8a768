import { Search } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/**
 * A list's search box: the text is sent with the button or Enter (not on every key), and follows the
 * address when it changes (the back button, a link with `?q=`).
 */
export function SearchForm({
  label,
  placeholder,
  value,
  onSearch,
  children,
}: {
  /** The accessible name of the box and of the form ('Search users'). */
  label: string;
  placeholder?: string;
  value: string;
  onSearch(text: string): void;
  /** More filters, after the box. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(text.trim());
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is from 2023 and unknown to the tests' DOM; the role works everywhere.
    <form role="search" aria-label={label} onSubmit={submit} className="flex flex-col gap-3">
      <div className="flex flex-col gap-2">
        <Label htmlFor={id}>{label}</Label>
        <div className="flex gap-2">
          <Input
            id={id}
            type="search"
            value={text}
            placeholder={placeholder}
            onChange={(event) => setText(event.target.value)}
            className="min-w-0 flex-1"
          />
          <Button type="submit">
            <Search aria-hidden="true" />
            {t('search.button')}
          </Button>
        </div>
      </div>
      {children}
    </form>
  );
}
