import {
  authResponseSchema,
  CAPTCHA_FIELD,
  loginRequestSchema,
  registerRequestSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const perIpLimit = { max: ctx.config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: 60_000 };
  // A second limit keyed by the username slows down password guessing spread over many addresses.
  const perUsernameLimit = app.rateLimit({
    max: ctx.config.RATE_LIMIT_AUTH_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => {
      const body = request.body as { username?: unknown } | undefined;
      return `auth-username:${String(body?.username ?? '').toLowerCase()}`;
    },
  });
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
      config: { rateLimit: perIpLimit },
      preHandler: perUsernameLimit,
    },
    async (request) => {
      const body = request.body;
      const token = await ctx.auth.register(
        {
          email: body.email,
          username: body.username,
          password: body.password,
          repeatPassword: body.repeat_password,
          captcha: body[CAPTCHA_FIELD],
        },
        request.ip,
      );
      return { success: true, token };
    },
  );

  app.post(
    '/login',
    {
      schema: { tags: ['auth'], summary: 'Sign in', body: loginRequestSchema, response: responses },
      config: { rateLimit: perIpLimit },
      preHandler: perUsernameLimit,
    },
    async (request) => {
      const { username, password } = request.body;
      const token = await ctx.auth.login(
        { username, password, captcha: request.body[CAPTCHA_FIELD] },
        request.ip,
      );
      return { success: true, token };
    },
  );
};

/** ALTCHA challenges for the sign-in and sign-up forms. */
export const captchaRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
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
      if (!ctx.altcha) throw notFound('ALTCHA is not the configured captcha.');
      reply.header('cache-control', 'no-store');
      return ctx.altcha.createChallenge();
    },
  );
};
