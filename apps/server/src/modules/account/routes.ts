import {
  accountMessages,
  accountResponseSchema,
  authMessages,
  authResponseSchema,
  buyingPreferencesRequestSchema,
  CAPTCHA_FIELD,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  confirmEmailRequestSchema,
  confirmTwoFactorRequestSchema,
  enableTwoFactorRequestSchema,
  forgotPasswordRequestSchema,
  languageRequestSchema,
  messageResponseSchema,
  notificationsRequestSchema,
  passwordChangedResponseSchema,
  recoveryCodesResponseSchema,
  resetPasswordRequestSchema,
  sessionIdParams,
  sessionsResponseSchema,
  twoFactorLoginRequestSchema,
  twoFactorSetupResponseSchema,
} from '@simcode/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tooManyRequests } from '../../lib/errors';
import { currentUser, type Guards } from '../auth/guards';
import type { AuthService } from '../auth/service';
import type { AccountService } from './service';

/**
 * Current-password checks one account may make in this window (a stolen session guessing the password).
 * Second-factor codes are limited by their failures instead (account/service.ts, auth/service.ts).
 */
const PASSWORD_CHECKS = 5;
const PASSWORD_CHECK_WINDOW_MS = 5 * 60_000;
/** Reset links one address may be sent in this window, however many people ask. */
const RESETS_PER_EMAIL = 3;
const RESET_WINDOW_MS = 60 * 60_000;

/** A limit counted per key; the request is refused with the seconds to wait when it is used up. */
function createLimit(
  app: FastifyInstance,
  max: number,
  timeWindow: number,
  keyOf: (request: FastifyRequest) => string | Promise<string>,
) {
  const limiter = app.createRateLimit({ max, timeWindow, keyGenerator: keyOf });
  return async (request: FastifyRequest) => {
    const outcome = await limiter(request);
    if (!outcome.isAllowed && outcome.isExceeded) {
      throw tooManyRequests(authMessages.tooManyAttempts(Math.max(1, outcome.ttlInSeconds)));
    }
  };
}

function clientOf(request: FastifyRequest) {
  return { address: request.ip, userAgent: request.headers['user-agent'] };
}

/**
 * The account page's API (`/api/account/…`, signed in) and the steps of signing in that do not need a
 * session (`/api/auth/…`: the second factor, password reset, e-mail confirmation).
 */
interface AccountRouteDeps {
  account: AccountService;
  auth: AuthService;
  guards: Guards;
  attemptsPerMinute: number;
}

export const accountRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (
  app,
  { account, auth, guards, attemptsPerMinute },
) => {
  const byAddress = createLimit(app, attemptsPerMinute, 60_000, (request) => `account-address:${request.ip}`);
  const passwordChecksByUser = createLimit(
    app,
    PASSWORD_CHECKS,
    PASSWORD_CHECK_WINDOW_MS,
    (request) => `password-checks:${request.authUser?.id ?? request.ip}`,
  );
  const resetsByEmail = createLimit(app, RESETS_PER_EMAIL, RESET_WINDOW_MS, (request) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return `reset-email:${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
  });
  const { requireUser } = guards;
  const message = { 200: messageResponseSchema };
  const publicStep = { tags: ['account'] };
  const signedIn = { tags: ['account'], security: [{ bearer: [] }] };

  app.post(
    '/auth/login/two-factor',
    {
      schema: {
        ...publicStep,
        summary: 'Complete a sign-in with a TOTP or recovery code',
        body: twoFactorLoginRequestSchema,
        response: { 200: authResponseSchema },
      },
      onRequest: byAddress,
    },
    async (request) => {
      const token = await auth.completeTwoFactorLogin(
        request.body.challenge,
        request.body.code,
        clientOf(request),
      );
      return { success: true, token };
    },
  );

  app.post(
    '/auth/password/forgot',
    {
      schema: {
        ...publicStep,
        summary: 'E-mail a password reset link (the answer is the same for unknown addresses)',
        body: forgotPasswordRequestSchema,
        response: message,
      },
      onRequest: byAddress,
      preHandler: resetsByEmail,
    },
    async (request) => ({
      success: true as const,
      message: await account.requestPasswordReset(
        { email: request.body.email, captcha: request.body[CAPTCHA_FIELD] },
        request.ip,
      ),
    }),
  );

  app.post(
    '/auth/password/reset',
    {
      schema: {
        ...publicStep,
        summary: 'Set a new password from a reset link; every session ends, and the API keys unless kept',
        body: resetPasswordRequestSchema,
        response: message,
      },
      onRequest: byAddress,
    },
    async (request) => ({
      success: true as const,
      message: await account.resetPassword({
        token: request.body.token,
        password: request.body.password,
        repeatPassword: request.body.repeat_password,
        revokeApiKeys: request.body.revoke_api_keys,
      }),
    }),
  );

  app.post(
    '/auth/email/confirm',
    {
      schema: {
        ...publicStep,
        summary: 'Confirm a new e-mail address from its link',
        body: confirmEmailRequestSchema,
        response: message,
      },
      onRequest: byAddress,
    },
    async (request) => ({
      success: true as const,
      message: await account.confirmEmailChange(request.body.token),
    }),
  );

  app.post(
    '/auth/email/revert',
    {
      schema: {
        ...publicStep,
        summary:
          'Move a changed e-mail address back from the link mailed to the old one; every session and API key ends',
        body: confirmEmailRequestSchema,
        response: message,
      },
      onRequest: byAddress,
    },
    async (request) => ({
      success: true as const,
      message: await account.revertEmailChange(request.body.token),
    }),
  );

  app.get(
    '/account',
    {
      schema: { ...signedIn, summary: 'The signed-in account', response: { 200: accountResponseSchema } },
      onRequest: requireUser,
    },
    async (request) => ({ success: true as const, account: await account.get(currentUser(request).id) }),
  );

  app.post(
    '/account/password',
    {
      schema: {
        ...signedIn,
        summary: 'Change the password; other sessions end and this one gets a new token',
        body: changePasswordRequestSchema,
        response: { 200: passwordChangedResponseSchema },
      },
      onRequest: requireUser,
      preHandler: passwordChecksByUser,
    },
    async (request) => {
      const token = await account.changePassword(
        currentUser(request),
        {
          currentPassword: request.body.current_password,
          password: request.body.password,
          repeatPassword: request.body.repeat_password,
        },
        clientOf(request),
      );
      return { success: true as const, message: accountMessages.passwordChanged, token };
    },
  );

  app.post(
    '/account/email',
    {
      schema: {
        ...signedIn,
        summary: 'Send a confirmation link to a new e-mail address',
        body: changeEmailRequestSchema,
        response: message,
      },
      onRequest: requireUser,
      preHandler: passwordChecksByUser,
    },
    async (request) => ({
      success: true as const,
      message: await account.requestEmailChange(currentUser(request).id, {
        email: request.body.email,
        currentPassword: request.body.current_password,
      }),
    }),
  );

  app.post(
    '/account/two-factor/setup',
    {
      schema: {
        ...signedIn,
        summary: 'A new TOTP secret and its QR code; two-factor turns on once a code confirms it',
        response: { 200: twoFactorSetupResponseSchema },
      },
      onRequest: requireUser,
    },
    async (request) => {
      const setup = await account.startTwoFactorSetup(currentUser(request).id);
      return {
        success: true as const,
        secret: setup.secret,
        otpauth_url: setup.otpauthUrl,
        qr_svg: setup.qrSvg,
      };
    },
  );

  app.post(
    '/account/two-factor/enable',
    {
      schema: {
        ...signedIn,
        summary: 'Turn two-factor on with a code from the new secret; answers the recovery codes once',
        body: enableTwoFactorRequestSchema,
        response: { 200: recoveryCodesResponseSchema },
      },
      onRequest: requireUser,
    },
    async (request) => ({
      success: true as const,
      message: accountMessages.twoFactorEnabled,
      recovery_codes: await account.enableTwoFactor(currentUser(request), request.body.code),
    }),
  );

  app.post(
    '/account/two-factor/disable',
    {
      schema: {
        ...signedIn,
        summary: 'Turn two-factor off (password and a code)',
        body: confirmTwoFactorRequestSchema,
        response: message,
      },
      onRequest: requireUser,
      preHandler: passwordChecksByUser,
    },
    async (request) => {
      await account.disableTwoFactor(currentUser(request), {
        currentPassword: request.body.current_password,
        code: request.body.code,
      });
      return { success: true as const, message: accountMessages.twoFactorDisabled };
    },
  );

  app.post(
    '/account/two-factor/recovery-codes',
    {
      schema: {
        ...signedIn,
        summary: 'Replace the recovery codes (password and a code)',
        body: confirmTwoFactorRequestSchema,
        response: { 200: recoveryCodesResponseSchema },
      },
      onRequest: requireUser,
      preHandler: passwordChecksByUser,
    },
    async (request) => ({
      success: true as const,
      message: accountMessages.recoveryCodesRenewed,
      recovery_codes: await account.renewRecoveryCodes(currentUser(request), {
        currentPassword: request.body.current_password,
        code: request.body.code,
      }),
    }),
  );

  app.put(
    '/account/notifications',
    {
      schema: {
        ...signedIn,
        summary: 'E-mail preferences',
        body: notificationsRequestSchema,
        response: message,
      },
      onRequest: requireUser,
    },
    async (request) => {
      await account.setCodeEmails(currentUser(request).id, request.body.code_emails);
      return { success: true as const, message: accountMessages.notificationsSaved };
    },
  );

  app.put(
    '/account/buying',
    {
      schema: {
        ...signedIn,
        summary: 'Buying preferences',
        description:
          'With `one_click_buying` the dashboard buys without asking first; a price that went up since it was shown is still asked for.',
        body: buyingPreferencesRequestSchema,
        response: message,
      },
      onRequest: requireUser,
    },
    async (request) => {
      await account.setOneClickBuying(currentUser(request).id, request.body.one_click_buying);
      return { success: true as const, message: accountMessages.buyingSaved };
    },
  );

  app.put(
    '/account/language',
    {
      schema: {
        ...signedIn,
        summary: 'The language of the site and of e-mails (en, ru or zh)',
        body: languageRequestSchema,
        response: message,
      },
      onRequest: requireUser,
    },
    async (request) => {
      await account.setLanguage(currentUser(request).id, request.body.language);
      return { success: true as const, message: accountMessages.languageSaved };
    },
  );

  app.get(
    '/account/sessions',
    {
      schema: {
        ...signedIn,
        summary: 'The sessions that can still be used',
        response: { 200: sessionsResponseSchema },
      },
      onRequest: requireUser,
    },
    async (request) => ({
      success: true as const,
      sessions: await account.listSessions(currentUser(request)),
    }),
  );

  app.delete(
    '/account/sessions/:id',
    {
      schema: { ...signedIn, summary: 'Sign out one session', params: sessionIdParams, response: message },
      onRequest: requireUser,
    },
    async (request) => {
      await account.endSession(currentUser(request), request.params.id);
      return { success: true as const, message: accountMessages.sessionSignedOut };
    },
  );
};
