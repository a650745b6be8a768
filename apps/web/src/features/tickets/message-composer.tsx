import { TICKET_CONTENT_MAX_LENGTH } from '@simcode/contract';
import { SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';

/**
 * The message input: Enter sends, Shift+Enter starts a new line. What was typed stays until the server
 * has accepted it, so a failed send loses nothing.
 */
export function MessageComposer({
  disabled,
  busy,
  placeholder,
  onSend,
}: {
  disabled: boolean;
  busy: boolean;
  placeholder: string;
  /** Resolves once the message is stored; rejects (already reported) when it was not. */
  onSend(content: string): Promise<unknown>;
}) {
  const { t } = useTranslation('tickets');
  const [draft, setDraft] = useState('');
  const content = draft.trim();
  const canSend = !disabled && !busy && content.length > 0;

  function send() {
    if (!canSend) return;
    onSend(content).then(
      () => setDraft(''),
      () => {},
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter while an input method is composing a character confirms the character, it does not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-1.5">
      <div className="flex items-end gap-2">
        <label htmlFor="ticket-message" className="sr-only">
          {t('composer.message')}
        </label>
        <Textarea
          id="ticket-message"
          name="content"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          maxLength={TICKET_CONTENT_MAX_LENGTH}
          rows={1}
          placeholder={placeholder}
          aria-describedby="ticket-message-hint"
          className="max-h-40 min-h-11 min-w-0 flex-1 resize-none [field-sizing:content]"
        />
        <Button
          type="submit"
          size="icon"
          busy={busy}
          disabled={!canSend}
          aria-label={t('composer.send')}
          className="size-11 shrink-0"
        >
          {!busy && <SendHorizontal aria-hidden="true" />}
        </Button>
      </div>
      <p id="ticket-message-hint" className="hidden text-xs text-muted-foreground sm:block">
        {t('composer.hint')}
      </p>
    </form>
  );
}
