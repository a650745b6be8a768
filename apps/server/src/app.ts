import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { durationText, generalMessages } from '@simcode/contract';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { AppContext } from './context';
import { installAnswerCompression } from './lib/compress-answers';
import { capConnections, httpServerOptions } from './lib/connection-limits';
import { answerClientError, answerError, installErrorHandler } from './lib/error-handler';
import { AppError } from './lib/errors';
import { installRequestLanguage } from './lib/request-language';
import { installSecurityHeaders } from './lib/security-headers';
import { serializerCompiler } from './lib/serializer';
import { accountRoutes } from './modules/account/routes';
import { moneyRoutes } from './modules/accounts/money-routes';
import { summaryRoutes } from './modules/accounts/routes';
import { activationRoutes } from './modules/activations/routes';
import { adminRoutes } from './modules/admin/routes';
import { apiKeyRoutes } from './modules/api-keys/routes';
import { authRoutes, captchaRoutes } from './modules/auth/routes';
import { catalogRoutes } from './modules/catalog/routes';
import { eventRoutes } from './modules/events/routes';
import { favouriteRoutes } from './modules/favourites/routes';
import { healthRoutes } from './modules/health/routes';
import { devOutboxRoutes } from './modules/mail/outbox-routes';
import { topupRoutes } from './modules/payments/routes';
import { rentalRoutes } from './modules/rentals/routes';
import { resellerRoutes } from './modules/reseller/routes';
import { ticketRoutes } from './modules/tickets/routes';
import { upstreamWebhookRoutes } from './modules/upstream/routes';
import { registerWebApp } from './modules/web/plugin';

/** JSON bodies of this API are small; anything larger is refused before parsing. */
const BODY_LIMIT_BYTES = 64 * 1024;

const CAPTCHA_HOSTS: Record<Config['CAPTCHA_PROVIDER'], string[]> = {
  altcha: [],
  recaptcha: ['https://www.google.com', 'https://www.gstatic.com'],
  hcaptcha: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  turnstile: ['https://challenges.cloudflare.com'],
};

/**
 * Only this origin may provide scripts, styles, images, fonts and connections. A hosted captcha, when an
 * operator chooses one, is the single exception. Inline styles are allowed because toast and dialog
 * libraries set them at run time; inline scripts are not.
 */
export function contentSecurityPolicy(config: Config) {
  const captchaHosts = CAPTCHA_HOSTS[config.CAPTCHA_PROVIDER];
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'", ...captchaHosts],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", ...captchaHosts],
      workerSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'", ...captchaHosts],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      ...(config.PUBLIC_URL.startsWith('https://') ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/** `{ styleSrc: [...] }` as swagger-ui takes a policy: `{ 'style-src': [...] }`; an empty list is a flag. */
function policyAsHeaderRecord(directives: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(directives).map(([name, values]) => [
      name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
      values.length > 0 ? values : [''],
    ]),
  );
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: BODY_LIMIT_BYTES,
    ...httpServerOptions(config),
    // A hop count trusts the entries our own proxies appended (the last N), never the client's leftmost one.
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    // A malformed address is answered in the API's one error shape, like any other bad request.
    frameworkErrors: answerError,
    // And what Node's parser refuses before there is a request (malformed line, 431, NUL in a header).
    clientErrorHandler: answerClientError,
    // One access line per request (below) instead of Fastify's two: at the default level, logging took
    // about a fifth of a polled request's time.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();

  capConnections(app.server, config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('authUser', null);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  await installRequestLanguage(app);
  // The access log: the request (its URL redacted by the logger's serializer), the status and the time,
  // in one line when the answer is sent.
  app.addHook('onResponse', (request, reply, done) => {
    if ((request.log as Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.('info') ?? true)
      request.log.info(
        { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
        'request completed',
      );
    done();
  });
  installErrorHandler(app);

  installSecurityHeaders(
    app,
    {
      contentSecurityPolicy: contentSecurityPolicy(config),
      // The top-up page follows the payment popup it opened (polling until it closes); with plain
      // same-origin the handle is severed once the popup reaches the payment provider's own origin.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      // Browsers ignore it over plain HTTP; on HTTPS it keeps them there.
      strictTransportSecurity: config.PUBLIC_URL.startsWith('https://'),
    },
    config.PUBLIC_URL.startsWith('https://'),
  );
  // Only the lists compress per answer (`config: { compress: true }`); pages, assets and the catalog arrive
  // compressed once, and small answers are not worth it.
  installAnswerCompression(app);
  await app.register(rateLimit, {
    global: false,
    ...(config.REDIS_URL ? { redis: new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 }) } : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError(429, generalMessages.tooManyRequestsIn(durationText(context.ttl)), 'rate_limited'),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.APP_NAME} API`, version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    // The administrators' API stays out of the public document in production (the operator's own copy is
    // any non-production instance).
    transform: (input) =>
      config.isProduction && input.url.startsWith('/api/admin')
        ? { schema: { ...input.schema, hide: true }, url: input.url }
        : jsonSchemaTransform(input),
  });
  // The API's pages follow the site's own policy (swagger-ui's default would demand HTTPS over plain HTTP
  // and refuse the inline styles it sets itself).
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: policyAsHeaderRecord(contentSecurityPolicy(config).directives),
  });

  await app.register(healthRoutes, { ctx });
  await app.register(authRoutes, { prefix: '/api/auth', ctx });
  await app.register(accountRoutes, { prefix: '/api', ctx });
  await app.register(captchaRoutes, { prefix: '/api/captcha', ctx });
  await app.register(ticketRoutes, { prefix: '/api/tickets', ctx });
  await app.register(catalogRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(activationRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(favouriteRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(rentalRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(summaryRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(moneyRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(eventRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(topupRoutes, { prefix: '/api/topup', ctx });
  await app.register(upstreamWebhookRoutes, { prefix: '/api/upstream', ctx });
  await app.register(adminRoutes, { prefix: '/api/admin', ctx });
  await app.register(apiKeyRoutes, { prefix: '/api/dashboard', ctx });
  await app.register(resellerRoutes, { ctx });
  // The built-in upstreams answer on this same server, as their real counterparts would on theirs.
  for (const { simulator, prefix } of ctx.simulators) await app.register(simulator.plugin, { prefix });
  if (ctx.paymentSandbox) await app.register(ctx.paymentSandbox.plugin, { prefix: '/sandbox' });
  if (ctx.config.devOutboxEnabled) {
    await app.register(devOutboxRoutes, { prefix: '/dev/outbox', outboxDir: ctx.config.mailOutboxDir });
  }
  await registerWebApp(app, ctx);

  return app;
}
