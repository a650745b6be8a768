/** The part of the host's logger (pino's, as Fastify's) the stand-ins write to. */
export interface StandInLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLogger: StandInLogger = { info: () => {}, warn: () => {}, error: () => {} };
