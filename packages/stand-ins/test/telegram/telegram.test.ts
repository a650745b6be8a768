import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramStandIn, type TelegramStandIn } from '../../src';

const TOKEN = '123456789:AAexampleTokenOfTheStandIn_0123456';
let app: FastifyInstance;
let telegram: TelegramStandIn;
let base: string;

beforeEach(async () => {
  telegram = createTelegramStandIn({ clock: { now: () => new Date('2026-11-27T06:00:00Z') } });
  app = Fastify();
  await app.register(telegram.plugin, { prefix: '/stand-ins/telegram' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}/stand-ins/telegram`;
});
afterEach(async () => {
  await app.close();
});

const send = (token: string, body: unknown, type = 'application/json') =>
  fetch(`${base}/bot${token}/sendMessage`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: type === 'application/json' ? JSON.stringify(body) : String(body),
  });

describe('the Telegram Bot API stand-in', () => {
  it('answers sendMessage as the Bot API does and records the message', async () => {
    const response = await send(TOKEN, { chat_id: -100200300, text: 'Supplier sim-a is out of routing' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: true,
      result: {
        message_id: 1,
        date: Date.parse('2026-11-27T06:00:00Z') / 1000,
        chat: { id: -100200300, type: 'private' },
        text: 'Supplier sim-a is out of routing',
        from: { id: 123456789, is_bot: true },
      },
    });
    // A form body, as some clients send it.
    const form = await send(TOKEN, 'chat_id=42&text=hello', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(200);
    expect(telegram.messages().map((message) => [message.chat.id, message.text])).toEqual([
      [-100200300, 'Supplier sim-a is out of routing'],
      ['42', 'hello'],
    ]);
  });

  it('refuses a malformed token, and a message without a chat or a text, in the Bot API words', async () => {
    const unauthorized = await send('not-a-token', { chat_id: 1, text: 'x' });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' });
    const noChat = await send(TOKEN, { text: 'x' });
    expect(noChat.status).toBe(400);
    expect(((await noChat.json()) as { description: string }).description).toBe(
      'Bad Request: chat_id is empty',
    );
    const noText = await send(TOKEN, { chat_id: 1, text: ' ' });
    expect(noText.status).toBe(400);
    expect(((await noText.json()) as { description: string }).description).toBe(
      'Bad Request: message text is empty',
    );
    expect(telegram.messages()).toHaveLength(0);
  });
});
