import type { Ticket } from '@simcode/contract';
import { generalMessages, TICKET_CONTENT_MAX_LENGTH, TICKET_TITLE_MAX_LENGTH } from '@simcode/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field, fieldErrorId } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { formatNumber } from '@/lib/format';
import { useCreateTicket } from './api';

function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <p id={id} className="text-right text-xs text-muted-foreground tabular-nums">
      {formatNumber(length)} / {formatNumber(max)}
    </p>
  );
}

/** 'Create New Support Ticket': a title and a description, both required once trimmed. */
export function NewTicketDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onCreated(ticket: Ticket): void;
}) {
  const { t } = useTranslation('tickets');
  const create = useCreateTicket();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);
  const fields = { title: title.trim(), description: description.trim() };
  // The spec: with an empty title or description nothing is sent; the empty field says so.
  const titleError = tried && !fields.title ? generalMessages.fieldRequired : undefined;
  const descriptionError = tried && !fields.description ? generalMessages.fieldRequired : undefined;
  const describedBy = (id: string, error: string | undefined) =>
    error ? `${fieldErrorId(id)} ${id}-count` : `${id}-count`;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!fields.title || !fields.description) return;
    create.mutate(fields, {
      onSuccess: ({ ticket }) => {
        setTitle('');
        setDescription('');
        setTried(false);
        onOpenChange(false);
        onCreated(ticket);
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !create.isPending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('new.title')}</DialogTitle>
          <DialogDescription>{t('new.description')}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <Field
            id="ticket-title"
            label={t('new.titleLabel')}
            error={titleError}
            below={
              <CharacterCount id="ticket-title-count" length={title.length} max={TICKET_TITLE_MAX_LENGTH} />
            }
          >
            <Input
              id="ticket-title"
              name="title"
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              maxLength={TICKET_TITLE_MAX_LENGTH}
              placeholder={t('new.titlePlaceholder')}
              aria-describedby={describedBy('ticket-title', titleError)}
              aria-invalid={titleError ? true : undefined}
              autoComplete="off"
            />
          </Field>
          <Field
            id="ticket-description"
            label={t('new.descriptionLabel')}
            error={descriptionError}
            below={
              <CharacterCount
                id="ticket-description-count"
                length={description.length}
                max={TICKET_CONTENT_MAX_LENGTH}
              />
            }
          >
            <Textarea
              id="ticket-description"
              name="description"
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              maxLength={TICKET_CONTENT_MAX_LENGTH}
              rows={6}
              placeholder={t('new.descriptionPlaceholder')}
              aria-describedby={describedBy('ticket-description', descriptionError)}
              aria-invalid={descriptionError ? true : undefined}
              className="max-h-[50dvh] resize-y"
            />
          </Field>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={create.isPending}>
                {t('new.cancel')}
              </Button>
            </DialogClose>
            <Button type="submit" busy={create.isPending}>
              {t('new.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
