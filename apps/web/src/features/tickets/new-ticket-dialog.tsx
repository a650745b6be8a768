import type { Ticket } from '@simcode/contract';
import { TICKET_CONTENT_MAX_LENGTH, TICKET_TITLE_MAX_LENGTH } from '@simcode/contract';
import { type FormEvent, useState } from 'react';
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
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import type { TicketActions } from './api';

function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <p id={id} className="text-right text-xs text-muted-foreground tabular-nums">
      {length.toLocaleString('en-US')} / {max.toLocaleString('en-US')}
    </p>
  );
}

/** 'Create New Support Ticket': a title and a description, both required once trimmed. */
export function NewTicketDialog({
  open,
  onOpenChange,
  create,
  onCreated,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  create: TicketActions['create'];
  onCreated(ticket: Ticket): void;
}) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const fields = { title: title.trim(), description: description.trim() };
    // The spec: with an empty title or description nothing is sent and nothing is said.
    if (!fields.title || !fields.description) return;
    create.mutate(fields, {
      onSuccess: ({ ticket }) => {
        setTitle('');
        setDescription('');
        onOpenChange(false);
        onCreated(ticket);
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !create.isPending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create New Support Ticket</DialogTitle>
          <DialogDescription>
            Tell us what went wrong. Include the number, service and time of the order if it is about one.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <Field
            id="ticket-title"
            label="Title"
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
              placeholder="A short summary of the problem"
              aria-describedby="ticket-title-count"
              autoComplete="off"
            />
          </Field>
          <Field
            id="ticket-description"
            label="Description"
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
              placeholder="What did you do, what did you expect, and what happened instead?"
              aria-describedby="ticket-description-count"
              className="max-h-[50dvh] resize-y"
            />
          </Field>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={create.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" busy={create.isPending}>
              Submit Ticket
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
