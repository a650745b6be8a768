import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import {
  type Params,
  ProtocolRefusal,
  type ProtocolReply,
  REFUSAL_TOKENS,
  type RefusalToken,
  type ResponseStyle,
  renderRefusal,
} from '@simcode/sms-activate-protocol';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SimulatorEngine } from './engine';
import type { SimSettings } from './engine-core';
import type { Fault, FaultQueue } from './faults';
import { answerFiveSim, renderFiveSimRefusal } from './fivesim-api';
import { answerAction } from './handler-api';
import type { Delivery } from './model';

/** What the HTTP layer needs from the running simulator. */
/** The protocol a simulated supplier speaks. */
export type SimProtocol = 'smsactivate' | 'fivesim';

export interface SimulatorRuntime {
  readonly apiKey: string;
  readonly protocol: SimProtocol;
  readonly engine: SimulatorEngine;
  readonly settings: SimSettings;
  readonly faults: FaultQueue;
  style: ResponseStyle;
  /** How refusals are told, whatever the style of the answers. */
  errorStyle: ResponseStyle;
  now(): number;
  /** Materialises due SMS and expiries, stores them, and pushes what was delivered. In a turn only. */
  tick(): Promise<void>;
  /**
   * Runs what reads or changes the state in a turn among the processes that share it (see SharedTurns),
   * and stores its changes before the turn ends: what an answer acknowledges (an id issued, a cancel, an
   * SMS) is stored before it leaves. Never nested; never around a fault's delay or hang.
   */
  inTurn<T>(work: () => Promise<T> | T): Promise<T>;
  deliver(delivery: Delivery): void;
  /** Back to the state and settings of a fresh start. */
  reset(): void;
}

/** A hanging answer is given up after this long even if the client never does. */
const HANG_LIMIT_MS = 5 * 60 * 1000;
const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const TRUNCATED_JSON = '{"status":"success","activeActivations":[{"activationId":"41';

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

function collectParams(...sources: unknown[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const source of sources) {
    if (typeof source !== 'object' || source === null) continue;
    for (const [key, value] of Object.entries(source)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        params[key] = String(value);
    }
  }
  return params;
}

function send(reply: FastifyReply, answer: ProtocolReply) {
  if (answer.contentType) reply.type(answer.contentType);
  if (answer.headers) reply.headers(answer.headers);
  return reply.code(answer.status).send(answer.body === '' ? undefined : answer.body);
}

const responseStyle = z.enum(['classic', 'hero']);
const idText = z.union([z.string().trim().min(1), z.number().int()]).transform(String);
const tokenText = z.enum(REFUSAL_TOKENS, { error: 'must be a refusal token of the protocol' });

const controlBodies = {
  /** A whole style: answers and errors. */
  style: z.object({ style: responseStyle }),
  fault: z
    .object({
      action: z.string().min(1).optional(),
      token: tokenText.optional(),
      payload: z.string().optional(),
      broken: z.enum(['html502', 'garbage', 'hang', 'reset']).optional(),
      delayMs: z.number().int().min(0).max(60_000).optional(),
      /** How many matching requests to affect; 0 means until cleared. */
      times: z.number().int().min(0).default(1),
    })
    .refine(
      (fault) => fault.token !== undefined || fault.broken !== undefined || fault.delayMs !== undefined,
      {
        message: 'give a token, a broken mode or a delayMs',
      },
    )
    .refine((fault) => fault.token === undefined || fault.broken === undefined, {
      message: 'give either a token or a broken mode',
    }),
  settings: z.object({
    smsDelayMinMs: z.number().int().min(0).optional(),
    smsDelayMaxMs: z.number().int().min(0).optional(),
    noSmsRate: z.number().min(0).max(1).optional(),
    seed: z.number().int().optional(),
    earlyCancelMs: z.number().int().min(0).optional(),
    /** Errors only: Hero's statuses and JSON under SMS-Activate's answers, or the reverse. */
    errorStyle: responseStyle.optional(),
  }),
  sms: z.union([
    z.object({
      activationId: idText,
      text: z.string().min(1).optional(),
      code: z.string().min(1).optional(),
    }),
    z.object({ rentId: idText, from: z.string().min(1).optional(), text: z.string().min(1).optional() }),
    // By the number, as a user knows their rent: its id is the provider's, which users never see.
    z.object({
      phone: z.string().regex(/^\d{6,15}$/),
      from: z.string().min(1).optional(),
      text: z.string().min(1).optional(),
    }),
  ]),
  state: z.union([z.object({ activationId: idText }), z.object({ rentId: idText })]),
  balance: z.object({ balanceUsd: z.number().min(0).max(1_000_000) }),
} as const;

/** 5sim's routes (docs/protocols.md B.2), each with the name fault injection matches it by. */
const FIVESIM_ROUTES: ReadonlyArray<{ url: string; action: string; guest?: true }> = [
  { url: '/v1/guest/countries', action: 'countries', guest: true },
  { url: '/v1/guest/prices', action: 'prices', guest: true },
  { url: '/v1/user/buy/activation/:country/:operator/:product', action: 'buy' },
  { url: '/v1/user/check/:id', action: 'check' },
  { url: '/v1/user/cancel/:id', action: 'cancel' },
  { url: '/v1/user/finish/:id', action: 'finish' },
  { url: '/v1/user/ban/:id', action: 'ban' },
  { url: '/v1/user/orders', action: 'orders' },
  { url: '/v1/user/profile', action: 'profile' },
];

/**
 * The simulator's HTTP face, mounted under its prefix (`/simulator`, `/simulator/<name>`): either
 * `stubs/handler_api.php` speaking the SMS-Activate protocol or `v1/...` speaking 5sim's; `control/*` are
 * test knobs guarded by the `x-simulator-key` header.
 */
export function simulatorPlugin(runtime: SimulatorRuntime): FastifyPluginAsync {
  return async (app) => {
    const hanging = new Set<Socket>();
    const releaseHanging = () => {
      for (const socket of hanging) socket.destroy();
      hanging.clear();
    };
    // A hanging answer would keep the server from closing.
    app.addHook('preClose', async () => releaseHanging());

    // SMS-Activate clients may POST forms; the host app may read them already (a second parser would throw).
    if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
      app.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(String(body))));
        },
      );
    }

    /** Answers as the fault says (a delay, an HTML page, garbage, no answer); true when it answered. */
    async function breakAnswer(
      request: FastifyRequest,
      reply: FastifyReply,
      fault: Fault | undefined,
    ): Promise<boolean> {
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      switch (fault?.broken) {
        case 'html502':
          await reply.code(502).type('text/html').send(NGINX_502);
          return true;
        case 'garbage':
          await reply.code(200).type('application/json').send(TRUNCATED_JSON);
          return true;
        case 'hang': {
          reply.hijack();
          const socket = request.raw.socket;
          hanging.add(socket);
          socket.once('close', () => hanging.delete(socket));
          setTimeout(() => socket.destroy(), HANG_LIMIT_MS).unref();
          return true;
        }
        case 'reset':
          reply.hijack();
          request.raw.socket.destroy();
          return true;
        default:
          return false;
      }
    }

    for (const route of runtime.protocol === 'fivesim' ? FIVESIM_ROUTES : []) {
      app.get(route.url, async (request, reply) => {
        const header = request.headers.authorization;
        const token =
          typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
        if (!route.guest && !sameSecret(token, runtime.apiKey)) return reply.code(401).send();
        const fault = runtime.faults.take(route.action);
        if (await breakAnswer(request, reply, fault)) return;
        if (fault?.token) return send(reply, renderFiveSimRefusal(new ProtocolRefusal(fault.token)));
        const params = collectParams(request.query, request.params);
        const answer = await runtime.inTurn(async () => {
          await runtime.tick();
          return answerFiveSim(runtime.engine, { action: route.action, params });
        });
        return send(reply, answer);
      });
    }

    if (runtime.protocol === 'smsactivate') registerHandlerApi();

    function registerHandlerApi() {
      app.route({
        method: ['GET', 'POST'],
        url: '/stubs/handler_api.php',
        handler: async (request, reply) => {
          const params: Params = collectParams(request.query, request.body);
          const action = params.action ?? '';
          const refuse = (token: RefusalToken, payload?: string) =>
            send(
              reply,
              renderRefusal(new ProtocolRefusal(token, payload), action, runtime.errorStyle, runtime.now()),
            );

          if (!params.api_key) return refuse(runtime.errorStyle === 'hero' ? 'NO_KEY' : 'BAD_KEY');
          if (!sameSecret(params.api_key, runtime.apiKey)) return refuse('BAD_KEY');

          const fault = runtime.faults.take(action);
          if (await breakAnswer(request, reply, fault)) return;
          if (fault?.token) return refuse(fault.token, fault.payload);

          const answer = await runtime.inTurn(async () => {
            await runtime.tick();
            return answerAction(action, {
              engine: runtime.engine,
              style: runtime.style,
              errorStyle: runtime.errorStyle,
              params,
              nowMs: runtime.now(),
            });
          });
          return send(reply, answer);
        },
      });
    }

    app.post<{ Params: { command: string } }>('/control/:command', async (request, reply) => {
      const header = request.headers['x-simulator-key'];
      if (!sameSecret(typeof header === 'string' ? header : undefined, runtime.apiKey)) {
        return reply.code(401).send({ error: 'The x-simulator-key header is missing or wrong.' });
      }
      const body = request.body ?? {};
      const invalid = (error: z.ZodError) =>
        reply.code(400).send({ error: error.issues.map((issue) => issue.message).join('; ') });
      const refused = (error: unknown) => {
        if (!(error instanceof ProtocolRefusal)) throw error;
        const unknown = ['NO_ACTIVATION', 'INVALID_PHONE', 'NO_ID_RENT'].includes(error.token);
        return reply.code(unknown ? 404 : 409).send({ error: error.token });
      };

      switch (request.params.command) {
        case 'style': {
          const parsed = controlBodies.style.safeParse(body);
          if (!parsed.success) return invalid(parsed.error);
          runtime.style = parsed.data.style;
          runtime.errorStyle = parsed.data.style;
          return { style: runtime.style, errorStyle: runtime.errorStyle };
        }
        case 'fault': {
          const parsed = controlBodies.fault.safeParse(body);
          if (!parsed.success) return invalid(parsed.error);
          const { times, ...fault } = parsed.data;
          runtime.faults.add({ ...fault, remaining: times === 0 ? null : times });
          return { faults: runtime.faults.list() };
        }
        case 'faults':
          return { faults: runtime.faults.list() };
        case 'clear-faults':
          runtime.faults.clear();
          return { faults: [] };
        case 'settings': {
          const parsed = controlBodies.settings.safeParse(body);
          if (!parsed.success) return invalid(parsed.error);
          const { errorStyle, ...engineSettings } = parsed.data;
          const next = { ...runtime.settings, ...engineSettings };
          if (next.smsDelayMinMs > next.smsDelayMaxMs) {
            return reply.code(400).send({ error: 'smsDelayMinMs must not exceed smsDelayMaxMs' });
          }
          const reseed = next.seed !== runtime.settings.seed;
          Object.assign(runtime.settings, next);
          if (reseed) runtime.engine.reseed();
          if (errorStyle) runtime.errorStyle = errorStyle;
          return { settings: { ...runtime.settings, errorStyle: runtime.errorStyle } };
        }
        case 'sms': {
          const parsed = controlBodies.sms.safeParse(body);
          if (!parsed.success) return invalid(parsed.error);
          try {
            const input = parsed.data;
            const delivery = await runtime.inTurn(() =>
              'activationId' in input
                ? runtime.engine.activations.injectSms(input.activationId, input.text, input.code)
                : runtime.engine.rents.injectSms(
                    'rentId' in input ? input.rentId : runtime.engine.rents.liveRentIdOf(input.phone),
                    input.from,
                    input.text,
                  ),
            );
            runtime.deliver(delivery);
            return { sms: delivery.sms };
          } catch (error) {
            return refused(error);
          }
        }
        case 'state': {
          const parsed = controlBodies.state.safeParse(body);
          if (!parsed.success) return invalid(parsed.error);
          try {
            const input = parsed.data;
            return await runtime.inTurn(async () => {
              await runtime.tick();
              return 'activationId' in input
                ? { activation: runtime.engine.activations.activation(input.activationId) }
                : { rent: runtime.engine.rents.rentById(input.rentId) };
            });
          } catch (error) {
            return refused(error);
          }
        }
        case 'account':
          return runtime.inTurn(async () => {
            await runtime.tick();
            return { account: runtime.engine.account() };
          });
        case 'balance': {
          const parsed = controlBodies.balance.safeParse(body);
          if (!parsed.success) return invalid(parsed.error);
          return runtime.inTurn(() => {
            runtime.engine.setBalance(parsed.data.balanceUsd);
            return { balanceUsd: runtime.engine.state.balanceUsd };
          });
        }
        case 'restock':
          // Unlike a reset, the orders and the next ids stay: a client that bought before never meets an id twice.
          return runtime.inTurn(() => {
            runtime.engine.restock();
            return { restocked: true };
          });
        case 'reset':
          releaseHanging();
          await runtime.inTurn(() => runtime.reset());
          return { reset: true };
        default:
          return reply.code(404).send({ error: `Unknown control command: ${request.params.command}` });
      }
    });
  };
}
