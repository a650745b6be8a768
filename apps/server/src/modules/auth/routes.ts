import {
  authMessages,
  authResponseSchema,
  CAPTCHA_FIELD,
  loginRequestSchema,
  loginResponseSchema,
  logoutEverywhereRequestSchema,
  registerRequestSchema,
  successResponseSchema,
  usernameLimitKey,
} from '@simcode/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound, tooManyRequests } from '../../lib/errors';
import type { AltchaCaptcha } from './captcha/altcha';
import { currentUser, type Guards } from './guards';
import type { AuthService } from './service';

/**
 * Sign-in and sign-up attempts are limited per address and per username, and both limits count every
 * attempt. (A route's `config.rateLimit` and an `app.rateLimit` hook cannot be combined: the plugin runs one
 * limiter per request. `createRateLimit` only counts, so both run.) The address limit is counted on the
 * request line; the username limit once the body is read, under the same normalised name sign-in uses, so
 * guessing spread over many addresses or spellings of one name still meets it.
 */
function createAttemptLimits(app: FastifyInstance, perMinute: number) {
  const byAddress = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `auth-address:${request.ip}`,
  });
  const byUsername = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => {
      const username = (request.body as { username?: unknown } | undefined)?.username;
      return `auth-username:${usernameLimitKey(typeof username === 'string' ? username : '')}`;
    },
  });
  const enforce = async (limit: typeof byAddress, request: FastifyRequest) => {
    const outcome = await limit(request);
    if (!outcome.isAllowed && outcome.isExceeded) {
      throw tooManyRequests(authMessages.tooManyAttempts(Math.max(1, outcome.ttlInSeconds)));
    }
  };
  return {
    onRequest: (request: FastifyRequest) => enforce(byAddress, request),
    preHandler: (request: FastifyRequest) => enforce(byUsername, request),
  };
}

function clientOf(request: FastifyRequest) {
  return { address: request.ip, userAgent: request.headers['user-agent'] };
}

interface AuthRouteDeps {
  auth: AuthService;
  guards: Guards;
  attemptsPerMinute: number;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRouteDeps> = async (
  app,
  { auth, guards, attemptsPerMinute },
) => {
  const attempts = createAttemptLimits(app, attemptsPerMinute);
  const responses = { 200: authResponseSchema };

  app.post(
    '/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        body: registerRequestSchema,
        response: responses,
      },
      onRequest: attempts.onRequest,
      preHandler: attempts.preHandler,
    },
    async (request) => {
      const body = request.body;
      const token = await auth.register(
        {
          email: body.email,
          username: body.username,
          password: body.password,
          repeatPassword: body.repeat_password,
          captcha: body[CAPTCHA_FIELD],
        },
        clientOf(request),
      );
      return { success: true, token };
    },
  );

  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in: a token, or a challenge to complete with a second-factor code',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema },
      },
      onRequest: attempts.onRequest,
      preHandler: attempts.preHandler,
    },
    async (request) => {
      const { username, password } = request.body;
      const outcome = await auth.login(
        { username, password, captcha: request.body[CAPTCHA_FIELD] },
        clientOf(request),
      );
      return 'token' in outcome
        ? { success: true, token: outcome.token }
        : { success: true, two_factor_required: true, challenge: outcome.challenge };
    },
  );

  const { requireUser } = guards;
  const signedIn = { tags: ['auth'], security: [{ bearer: [] }], response: { 200: successResponseSchema } };

  app.post(
    '/logout',
    { schema: { ...signedIn, summary: 'Sign out: this token stops working' }, onRequest: requireUser },
    async (request) => {
      await auth.logout(currentUser(request));
      return { success: true as const };
    },
  );

  app.post(
    '/logout-all',
    {
      schema: {
        ...signedIn,
        summary:
          "Sign out everywhere: every one of the user's tokens and mailed links stops working, and the API keys unless kept",
        body: logoutEverywhereRequestSchema,
      },
      onRequest: requireUser,
    },
    async (request) => {
      await auth.logoutEverywhere(currentUser(request).id, {
        revokeApiKeys: request.body.revoke_api_keys,
      });
      return { success: true as const };
    },
  );
};

/** ALTCHA challenges for the sign-in and sign-up forms. */
export const captchaRoutes: FastifyPluginAsyncZod<{ altcha?: AltchaCaptcha }> = async (app, { altcha }) => {
  app.get(
    '/challenge',
    {
      schema: {
        tags: ['auth'],
        summary: 'A fresh ALTCHA proof-of-work challenge',
        response: { 200: z.any() },
      },
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
    },
    async (_request, reply) => {
      if (!altcha) throw notFound();
      reply.header('cache-control', 'no-store');
      return altcha.createChallenge();
    },
  );
};
