import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_V1_PREFIX, durationText, generalMessages } from '@simcode/contract';
import { TELEGRAM_STAND_IN_PREFIX } from '@simcode/stand-ins';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import { createAccessLog } from '../lib/access-log';
import { installAnswerCompression } from '../lib/compress-answers';
import { capConnections, httpServerOptions } from '../lib/connection-limits';
import {
  answerClientError,
  answerError,
  installErrorHandler,
  refusedWithoutHost,
} from '../lib/error-handler';
import { AppError, fail } from '../lib/errors';
import { enterRequestLanguage, installRequestLanguage } from '../lib/request-language';
import { securityHeaders } from '../lib/security-headers';
import { serializerCompiler } from '../lib/serializer';
import { traceRequests, tracesUrl } from '../lib/tracing';
import { accountRoutes } from '../modules/account/routes';
import { moneyRoutes } from '../modules/accounts/money-routes';
import { summaryRoutes } from '../modules/accounts/routes';
import { adminRoutes } from '../modules/admin/routes';
import { alertRoutes } from '../modules/alerts/routes';
import { apiKeyRoutes } from '../modules/api-keys/routes';
import { apiV1Routes } from '../modules/api-v1/plugin';
import { createGuards } from '../modules/auth/guards';
import { authRoutes, captchaRoutes } from '../modules/auth/routes';
import { servicePricesOf } from '../modules/catalog/public-routes';
import { catalogRoutes } from '../modules/catalog/routes';
import { eventRoutes } from '../modules/events/routes';
import { favouriteRoutes } from '../modules/favourites/routes';
import { outboxDepths } from '../modules/health/outbox-depths';
import { healthRoutes, metricsRoutes } from '../modules/health/routes';
import { devOutboxRoutes } from '../modules/mail/outbox-routes';
import { activationRoutes } from '../modules/orders/activations/routes';
import { rentalRoutes } from '../modules/orders/rents/routes';
import { topupRoutes, topupWebhookRoutes } from '../modules/payments/routes';
import { resellerRoutes } from '../modules/reseller/routes';
import {
  adminIncidentRoutes,
  statusApiRoutes,
  statusFeedRoutes,
  statusSubscriptionRoutes,
} from '../modules/status/routes';
import { ticketAdminRoutes, ticketRoutes } from '../modules/tickets/routes';
import { upstreamWebhookRoutes } from '../modules/upstream/routes';
import { redirectedToOwnHost, registerWebApp } from '../modules/web/plugin';
import type { Container } from './container';
import { NOWPAYMENTS_SANDBOX_PREFIX } from './upstreams';

/** A background job run longer than this is reported stuck by readiness (the longest take seconds). */
const JOB_STUCK_AFTER_MS = 15 * 60_000;

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

export async function buildApp(ctx: Container): Promise<FastifyInstance> {
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
  app.addHook('onClose', () => ctx.rateLimitCounters.close());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('authUser', null);
  await installRequestLanguage(app);
  installErrorHandler(app);
  const setSecurityHeaders = securityHeaders(
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
  // With a collector configured, a span per request, active while the rest of the request runs: so first.
  if (tracesUrl(config)) traceRequests(app);
  // What every request needs before its route, in one hook rather than one each (a polled request paid
  // for five): its id, the connection's fate while draining, its language, the Host check, the security
  // headers and a page's redirect to the public origin.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // While draining, each answer closes its connection: a reused socket would otherwise be reset when
    // the server stops, and the client's next request opens a connection the load balancer routes elsewhere.
    if (ctx.lifecycle.draining) reply.header('connection', 'close');
    enterRequestLanguage(request, () => {
      if (refusedWithoutHost(request, reply)) return;
      setSecurityHeaders(request, reply);
      if (redirectedToOwnHost(config.PUBLIC_URL, request, reply)) return;
      done();
    });
  });
  // And after every answer, in one hook: the access line (health probes left out, successful polls
  // below info) and the metrics.
  const logAccess = createAccessLog();
  app.addHook('onResponse', (request, reply, done) => {
    logAccess(request, reply);
    ctx.metrics.observeHttp(request, reply);
    done();
  });
  // A throttled buyer is told when to come back, in the header clients and proxies already honour.
  app.addHook('onError', async (_request, reply, error) => {
    const retryAfter = error instanceof AppError ? error.details?.retry_after : undefined;
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  });
  ctx.metrics.observeDependencies({
    pool: ctx.database.pool,
    redisState: ctx.rateLimitCounters.redisState,
    listenerState: ctx.events.listenerState,
    outboxDepths: () => outboxDepths(ctx.database.db),
  });

  // Only the lists compress per answer (`config: { compress: true }`); pages, assets and the catalog arrive
  // compressed once, and small answers are not worth it.
  installAnswerCompression(app);
  await app.register(rateLimit, {
    global: false,
    store: ctx.rateLimitCounters.Store,
    errorResponseBuilder: (_request, context) =>
      fail('rate_limited', generalMessages.tooManyRequestsIn(durationText(context.ttl))),
  });
  await app.register(swagger, {
    openapi: {
      // 3.1: its schemas are JSON Schema 2020-12, which zod writes as they are.
      openapi: '3.1.0',
      info: { title: `${config.APP_NAME} API`, version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // The JSON API's: an API key from the API keys page, as a bearer token.
          apiKey: { type: 'http', scheme: 'bearer' },
        },
      },
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

  const { config: c } = ctx;
  const guards = createGuards(ctx.auth);
  const attemptsPerMinute = c.RATE_LIMIT_AUTH_PER_MINUTE;
  const purchasesPerMinute = c.RATE_LIMIT_PURCHASES_PER_MINUTE;

  // Public: health, signing in and up, captcha, the providers' webhooks (verified by secret or signature).
  await app.register(healthRoutes, {
    database: ctx.database,
    redisState: ctx.rateLimitCounters.redisState,
    listenerState: ctx.events.listenerState,
    draining: () => ctx.lifecycle.draining,
    stuckJobs: () => ctx.lifecycle.jobs?.stuck(JOB_STUCK_AFTER_MS),
  });
  if (c.METRICS_TOKEN)
    await app.register(metricsRoutes, { registry: ctx.metrics.registry, token: c.METRICS_TOKEN });
  await app.register(authRoutes, { prefix: '/api/auth', auth: ctx.auth, guards, attemptsPerMinute });
  await app.register(accountRoutes, {
    prefix: '/api',
    account: ctx.account,
    auth: ctx.auth,
    guards,
    attemptsPerMinute,
  });
  await app.register(captchaRoutes, { prefix: '/api/captcha', altcha: ctx.altcha });
  await app.register(topupWebhookRoutes, { prefix: '/api/topup', topups: ctx.topups });
  await app.register(upstreamWebhookRoutes, {
    prefix: '/api/upstream',
    providers: ctx.providers,
    activations: ctx.activations,
    rentals: ctx.rentals,
    webhookSecret: c.SMS_WEBHOOK_SECRET,
  });

  // Signed in: who is calling is settled once, on the request line, before any input is judged.
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', guards.requireUser);
    await signedIn.register(ticketRoutes, { prefix: '/api/tickets', tickets: ctx.tickets });
    await signedIn.register(topupRoutes, { prefix: '/api/topup', topups: ctx.topups, clock: ctx.clock });
    await signedIn.register(statusSubscriptionRoutes, { prefix: '/api/status', status: ctx.status });
    await signedIn.register(
      async (dashboard) => {
        await dashboard.register(catalogRoutes, { catalog: ctx.catalog });
        await dashboard.register(activationRoutes, { activations: ctx.activations, purchasesPerMinute });
        await dashboard.register(favouriteRoutes, { favourites: ctx.favourites });
        await dashboard.register(rentalRoutes, { rentals: ctx.rentals, purchasesPerMinute });
        await dashboard.register(summaryRoutes, {
          db: ctx.database.db,
          events: ctx.events,
          clock: ctx.clock,
          catalog: ctx.catalog,
          activations: ctx.activations,
          rentals: ctx.rentals,
        });
        await dashboard.register(moneyRoutes, { money: ctx.money, clock: ctx.clock });
        await dashboard.register(eventRoutes, {
          events: ctx.events,
          auth: ctx.auth,
          maxStreams: c.SSE_MAX_STREAMS,
          maxStreamsPerUser: c.SSE_MAX_STREAMS_PER_USER,
          openStreams: ctx.metrics.sseStreams,
        });
        await dashboard.register(apiKeyRoutes, { apiKeys: ctx.apiKeys, account: ctx.account });
      },
      { prefix: '/api/dashboard' },
    );
  });

  // Administrators: a visitor gets 401, a user 403; the role is read from the database on every request.
  await app.register(async (administrators) => {
    administrators.addHook('onRequest', guards.requireAdmin);
    await administrators.register(adminRoutes, {
      prefix: '/api/admin',
      admin: ctx.admin,
      db: ctx.database.db,
    });
    await administrators.register(ticketAdminRoutes, { prefix: '/api/tickets', tickets: ctx.tickets });
    await administrators.register(adminIncidentRoutes, { prefix: '/api/admin', status: ctx.status });
    await administrators.register(alertRoutes, { prefix: '/api/admin', alerts: ctx.alerts });
  });

  // API keys: the SMS-Activate protocol, the MCP server and the JSON API check the key on every call.
  const keyed = {
    activations: ctx.activations,
    rentals: ctx.rentals,
    catalog: ctx.catalog,
    apiKeys: ctx.apiKeys,
    money: ctx.money,
    db: ctx.database.db,
    events: ctx.events,
    clock: ctx.clock,
    log: ctx.log,
    callsPerMinute: {
      perKey: c.RATE_LIMIT_API_KEY_PER_MINUTE,
      perUser: c.RATE_LIMIT_API_USER_PER_MINUTE,
      unknownKeyLookups: c.RATE_LIMIT_API_KEY_LOOKUPS_PER_MINUTE,
    },
    waits: ctx.waits,
    deliveryIndex: ctx.deliveryIndex,
  };
  await app.register(apiV1Routes, { prefix: API_V1_PREFIX, ...keyed, publicUrl: c.PUBLIC_URL });
  // The status page's data and feed are open, like the Delivery Index.
  await app.register(statusApiRoutes, { prefix: API_V1_PREFIX, status: ctx.status });
  await app.register(statusFeedRoutes, { status: ctx.status, publicUrl: c.PUBLIC_URL, appName: c.APP_NAME });
  await app.register(resellerRoutes, { ...keyed, appName: c.APP_NAME });
  // The built-in upstreams answer on this same server, as their real counterparts would on theirs.
  await ctx.simulators.mount(app);
  if (ctx.paymentSandbox) await app.register(ctx.paymentSandbox.plugin, { prefix: '/sandbox' });
  if (ctx.nowPaymentsSandbox) {
    await app.register(ctx.nowPaymentsSandbox.plugin, { prefix: NOWPAYMENTS_SANDBOX_PREFIX });
  }
  // Telegram alert channels send here unless they name a Bot API base URL: a fresh clone works offline.
  await app.register(ctx.telegram.plugin, { prefix: TELEGRAM_STAND_IN_PREFIX });
  if (c.devOutboxEnabled) {
    await app.register(devOutboxRoutes, { prefix: '/dev/outbox', outboxDir: c.mailOutboxDir });
  }
  // A service's public price list carries its prices in its page's HTML, from the catalog.
  await registerWebApp(app, c, {
    of: (service) => servicePricesOf(ctx.catalog, service),
    version: () => String(ctx.catalog.version()),
  });

  return app;
}
