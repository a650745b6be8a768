import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AuthService, AuthSession } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the user or admin guard; null on public routes. */
    authUser: AuthSession | null;
  }
}

/**
 * Hooks that resolve the caller from the database (through the auth service's event-invalidated cache) on
 * every request. Callback style with a synchronous path for cached callers: polled endpoints pay no promise.
 */
export function createGuards(auth: AuthService) {
  return {
    requireUser: (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const cached = auth.authenticateCached(request.headers.authorization);
      if (cached) {
        request.authUser = cached;
        done();
        return;
      }
      auth.authenticate(request.headers.authorization).then((user) => {
        request.authUser = user;
        done();
      }, done);
    },
    requireAdmin: async (request: FastifyRequest) => {
      request.authUser = await auth.authenticateAdmin(request.headers.authorization);
    },
  };
}

export type Guards = ReturnType<typeof createGuards>;

/** The caller of a guarded route. Calling it on an unguarded route is a programming error. */
export function currentUser(request: FastifyRequest): AuthSession {
  if (!request.authUser) throw new Error(`route ${request.routeOptions.url} is missing its auth guard`);
  return request.authUser;
}
