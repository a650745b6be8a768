import type { FastifyPluginAsync } from 'fastify';
import { type Clock, systemClock } from '../clock';

/** A message the stand-in accepted, as the Bot API answers it (`Message`), with the bot's token it came with. */
export interface TelegramRecordedMessage {
  message_id: number;
  date: number;
  chat: { id: number | string; type: 'private' };
  text: string;
  /** Not part of the Bot API's answer: which bot sent it, for tests and the stand-in's own page. */
  token: string;
}

/**
 * Where SimCode mounts the stand-in (`app.register(telegram.plugin, { prefix: TELEGRAM_STAND_IN_PREFIX })`):
 * the default base URL of its Telegram alert channels.
 */
export const TELEGRAM_STAND_IN_PREFIX = '/stand-ins/telegram';

export interface TelegramStandIn {
  /** Mount under a prefix (TELEGRAM_STAND_IN_PREFIX in SimCode): that is then its base URL. */
  plugin: FastifyPluginAsync;
  /** What was sent, oldest first. */
  messages(): readonly TelegramRecordedMessage[];
}

/** Bot tokens look like `123456789:AA…`: digits, a colon, then 30-odd URL-safe characters. */
const TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** The Bot API's limit on a message's text. */
const MAX_TEXT_LENGTH = 4096;
/** Messages kept in memory; the oldest go first. */
const KEPT_MESSAGES = 1000;

/**
 * A local stand-in for Telegram's Bot API: `POST /bot<token>/sendMessage` with `chat_id` and `text`, in
 * JSON or as a form, answered as the real API answers (`{ ok, result }` or `{ ok: false, error_code,
 * description }`). It records the messages instead of delivering them, so a fresh clone's operator alerts
 * work offline and tests can read what the bot said (`messages()`); nothing lists them over HTTP,
 * since alert texts are the operators' business.
 */
export function createTelegramStandIn(options: { clock?: Clock } = {}): TelegramStandIn {
  const clock = options.clock ?? systemClock;
  const recorded: TelegramRecordedMessage[] = [];
  let nextId = 1;

  const plugin: FastifyPluginAsync = async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    app.post<{ Params: { token: string }; Body: Record<string, unknown> | undefined }>(
      '/bot:token/sendMessage',
      async (request, reply) => {
        const { token } = request.params;
        if (!TOKEN_PATTERN.test(token))
          return reply.code(401).send({ ok: false, error_code: 401, description: 'Unauthorized' });
        const body = request.body ?? {};
        const chatId = body.chat_id;
        const text = typeof body.text === 'string' ? body.text : '';
        if (chatId === undefined || chatId === null || chatId === '')
          return reply
            .code(400)
            .send({ ok: false, error_code: 400, description: 'Bad Request: chat_id is empty' });
        if (text.trim() === '')
          return reply
            .code(400)
            .send({ ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
        if (text.length > MAX_TEXT_LENGTH)
          return reply
            .code(400)
            .send({ ok: false, error_code: 400, description: 'Bad Request: message is too long' });
        const message: TelegramRecordedMessage = {
          message_id: nextId++,
          date: Math.floor(clock.now().getTime() / 1000),
          chat: { id: chatId as number | string, type: 'private' },
          text,
          token,
        };
        recorded.push(message);
        if (recorded.length > KEPT_MESSAGES) recorded.shift();
        const { token: _token, ...result } = message;
        return { ok: true, result: { ...result, from: { id: Number(token.split(':')[0]), is_bot: true } } };
      },
    );
  };

  return { plugin, messages: () => recorded };
}
