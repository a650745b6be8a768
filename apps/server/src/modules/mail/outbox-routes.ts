import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../lib/errors';
import { escapeHtml } from '../../lib/html';

/** How many messages the list shows, newest first. */
const LISTED_MESSAGES = 200;
const MESSAGE_FILE = /^[A-Za-z0-9-]+\.eml$/;

/**
 * The development outbox's parser, loaded on the first visit to the outbox: it is among the largest modules
 * of the server, and most processes never show a message.
 */
async function parseMail(raw: Buffer) {
  const { simpleParser } = await import('mailparser');
  return simpleParser(raw);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}

/**
 * `/dev/outbox`: the messages the outbox transport wrote, for development and the browser tests. It shows
 * reset links, so it exists only outside production and only with the outbox transport.
 */
export const devOutboxRoutes: FastifyPluginAsync<{ outboxDir: string }> = async (app, { outboxDir }) => {
  async function messageFiles(): Promise<string[]> {
    try {
      return (await readdir(outboxDir))
        .filter((name) => MESSAGE_FILE.test(name))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  }

  // A development page, not part of the API: kept out of the OpenAPI description.
  const hidden = { schema: { hide: true } };

  app.get('/', hidden, async (_request, reply) => {
    const files = (await messageFiles()).slice(0, LISTED_MESSAGES);
    const rows = await Promise.all(
      files.map(async (name) => {
        const mail = await parseMail(await readFile(path.join(outboxDir, name)));
        return `<li><a href="/dev/outbox/${name}">${escapeHtml(mail.subject ?? '(no subject)')}</a> to <span class="to">${escapeHtml(
          mail.to
            ? [mail.to]
                .flat()
                .map((to) => to.text)
                .join(', ')
            : '',
        )}</span> <time>${escapeHtml(mail.date?.toISOString() ?? '')}</time></li>`;
      }),
    );
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return page(
      'Outbox',
      `<h1>Outbox</h1><p>Mail written by the outbox transport (${files.length} shown, newest first).</p>${
        rows.length > 0 ? `<ol>${rows.join('')}</ol>` : '<p>No messages yet.</p>'
      }`,
    );
  });

  app.get<{ Params: { name: string } }>('/:name', hidden, async (request, reply) => {
    const { name } = request.params;
    if (!MESSAGE_FILE.test(name)) throw notFound();
    let raw: Buffer;
    try {
      raw = await readFile(path.join(outboxDir, name));
    } catch {
      throw notFound();
    }
    const mail = await parseMail(raw);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    const to = mail.to
      ? [mail.to]
          .flat()
          .map((address) => address.text)
          .join(', ')
      : '';
    return page(
      mail.subject ?? 'Message',
      `<p><a href="/dev/outbox">Outbox</a></p><h1>${escapeHtml(mail.subject ?? '(no subject)')}</h1><dl><dt>From</dt><dd>${escapeHtml(mail.from?.text ?? '')}</dd><dt>To</dt><dd>${escapeHtml(to)}</dd><dt>Date</dt><dd>${escapeHtml(mail.date?.toISOString() ?? '')}</dd></dl><article>${mail.textAsHtml ?? ''}</article>`,
    );
  });
};
