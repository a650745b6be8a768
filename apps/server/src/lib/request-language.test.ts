import { authMessages, CAPTCHA_FIELD, type Language } from '@simcode/contract';
import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app';
import { solveCaptcha } from '../../test/support/captcha';
import { createUser, type TestUser } from '../../test/support/users';
import { inLanguageOf } from './request-language';

let t: TestApp;
let user: TestUser;
beforeEach(async () => {
  t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
  user = await createUser(t);
});
afterEach(async () => {
  await t.app.close();
});

const ACCEPT: Record<Language, string> = { en: 'en-US,en;q=0.9', ru: 'ru-RU,ru;q=0.9,en;q=0.5', zh: 'zh-CN' };

function inject(
  language: Language | null,
  request: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown; token?: string },
) {
  return t.app.inject({
    method: request.method,
    url: request.url,
    ...(request.payload === undefined ? {} : { payload: request.payload as object }),
    headers: {
      ...(language ? { 'accept-language': ACCEPT[language] } : {}),
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
    },
  });
}

/** Signing in with a wrong password: an AppError raised deep in the auth service. */
async function wrongPassword(language: Language | null) {
  return inject(language, {
    method: 'POST',
    url: '/api/auth/login',
    payload: {
      username: user.username,
      password: 'not-the-password',
      [CAPTCHA_FIELD]: await solveCaptcha(t.app),
    },
  });
}

describe('answers in the language of the request', () => {
  it("words an application error in the request's language, English without the header", async () => {
    const answers = await Promise.all([wrongPassword(null), wrongPassword('ru'), wrongPassword('zh')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401, 401]);
    expect(answers.map((answer) => answer.json())).toEqual([
      { success: false, error: 'Invalid username or password.', code: 'invalid_credentials' },
      { success: false, error: 'Неверное имя пользователя или пароль.', code: 'invalid_credentials' },
      { success: false, error: '用户名或密码错误。', code: 'invalid_credentials' },
    ]);
    expect(answers[1]!.headers.vary).toContain('accept-language');
  });

  it('words a validation error, its frame and its fragment, and keeps the API field name', async () => {
    const notifications = (language: Language | null) =>
      inject(language, {
        method: 'PUT',
        url: '/api/account/notifications',
        payload: { code_emails: 'yes' },
        token: user.token,
      });
    const [english, russian, chinese] = await Promise.all(
      ['en', 'ru', 'zh'].map((l) => notifications(l as Language)),
    );
    expect(english!.json().error).toBe('Invalid request: code emails must be true or false.');
    expect(russian!.json()).toEqual({
      success: false,
      error: 'Неверный запрос: code emails — должно быть true или false.',
      code: 'invalid_request',
    });
    expect(chinese!.json().error).toBe('请求无效：code emails 必须是 true 或 false。');

    // zod's own wording (a limit the schema did not word) and a body that is not an object.
    const tooLong = await inject('ru', {
      method: 'POST',
      url: '/api/auth/login/two-factor',
      payload: { challenge: 'x'.repeat(2001), code: '123456' },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toBe(
      'Неверный запрос: challenge — должно содержать не более 2000 символов.',
    );
    const noObject = await inject('zh', {
      method: 'PUT',
      url: '/api/account/notifications',
      payload: [],
      token: user.token,
    });
    expect(noObject.statusCode).toBe(400);
    expect(noObject.json().error).toBe('请求无效：请求内容 必须是对象。');
  });

  it('words a 404 and the refusals that come before any route', async () => {
    const [english, russian, chinese] = await Promise.all(
      ([null, 'ru', 'zh'] as const).map((language) =>
        inject(language, { method: 'GET', url: '/api/no-such-thing' }),
      ),
    );
    expect([english!.statusCode, russian!.statusCode, chinese!.statusCode]).toEqual([404, 404, 404]);
    expect(english!.json()).toEqual({ success: false, error: 'Not found.', code: 'not_found' });
    expect(russian!.json()).toEqual({ success: false, error: 'Не найдено.', code: 'not_found' });
    expect(chinese!.json()).toEqual({ success: false, error: '未找到。', code: 'not_found' });

    const badJson = await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { 'content-type': 'application/json', 'accept-language': 'ru', ...user.headers },
      payload: '{"code_emails":',
    });
    expect(badJson.json()).toMatchObject({
      error: 'Тело запроса не является корректным JSON.',
      code: 'invalid_json',
    });
  });

  it('ends the session with the same code in every language', async () => {
    const answers = await Promise.all(
      (['en', 'ru', 'zh'] as const).map((language) =>
        inject(language, { method: 'GET', url: '/api/account', token: 'forged.token.value' }),
      ),
    );
    expect(answers.map((answer) => answer.json())).toEqual([
      { success: false, error: 'Invalid token', code: 'unauthorized' },
      { success: false, error: 'Сеанс недействителен', code: 'unauthorized' },
      { success: false, error: '登录状态无效', code: 'unauthorized' },
    ]);
  });

  it('counts the seconds of a refusal with the plural form each language needs', async () => {
    const russian = { language: 'ru' } as FastifyRequest;
    expect(
      [1, 3, 5, 21].map((seconds) => inLanguageOf(russian, () => authMessages.tooManyAttempts(seconds))),
    ).toEqual([
      'Слишком много попыток. Повторите через 1 секунду.',
      'Слишком много попыток. Повторите через 3 секунды.',
      'Слишком много попыток. Повторите через 5 секунд.',
      'Слишком много попыток. Повторите через 21 секунду.',
    ]);
    expect(inLanguageOf({ language: 'zh' } as FastifyRequest, () => authMessages.tooManyAttempts(5))).toBe(
      '尝试次数过多，请 5 秒后再试。',
    );
    // Outside a request, English.
    expect(authMessages.tooManyAttempts(1)).toBe('Too many attempts. Please try again in 1 second.');

    // And through the server: the sign-in limit's refusal, worded in the request's language.
    const statuses: number[] = [];
    let last: { error?: string; code?: string } = {};
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await wrongPassword('ru');
      statuses.push(answer.statusCode);
      last = answer.json();
    }
    expect(statuses.at(-1)).toBe(429);
    expect(last.code).toBe('rate_limited');
    expect(last.error).toMatch(
      /^Слишком много (попыток|запросов)\. Повторите через \d+ (секунд[уы]?|минуту)\.$/,
    );
  });
});
