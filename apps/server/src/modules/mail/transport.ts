import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config';
import type { RenderedMail } from './templates';

export interface OutgoingMail extends RenderedMail {
  to: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Nodemailer, loaded with the first message sent: most processes send none for a long time (or ever), and it
 * is among the largest modules of the server.
 */
function lazyTransport(create: (nodemailer: typeof import('nodemailer')['default']) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => create(nodemailer));
      return transport;
    },
    close: () => void transport?.then((created) => created.close()),
  };
}

/**
 * Nodemailer builds every message. `smtp` hands it to the configured server; `outbox` (the default) writes
 * the same RFC 5322 message to an .eml file, so a fresh clone sends password resets with no mail server.
 */
export function createMailTransport(
  config: Pick<Config, 'MAIL_TRANSPORT' | 'SMTP_URL' | 'MAIL_FROM' | 'mailOutboxDir'>,
): MailTransport {
  if (config.MAIL_TRANSPORT === 'smtp') {
    const smtp = lazyTransport((nodemailer) => nodemailer.createTransport(config.SMTP_URL!));
    return {
      async send(mail) {
        await (await smtp.get()).sendMail({ from: config.MAIL_FROM, ...mail });
      },
      close: smtp.close,
    };
  }
  const builder = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    async send(mail) {
      const info = await (await builder.get()).sendMail({ from: config.MAIL_FROM, ...mail });
      await mkdir(config.mailOutboxDir, { recursive: true });
      // The time first, so a listing sorts by it; written aside and renamed, so no half file is ever listed.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 24)}.eml`;
      const target = path.join(config.mailOutboxDir, name);
      await writeFile(`${target}.tmp`, info.message as Buffer);
      await rename(`${target}.tmp`, target);
    },
    close: builder.close,
  };
}
