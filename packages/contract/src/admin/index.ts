/**
 * The operator console's schemas, one file per section of the console.
 */

export * from './alerts';
export * from './audit';
export * from './common';
export * from './orders';
export * from './overview';
export * from './payments';
export * from './pricing';
export * from './providers';
export * from './reconciliation';
export * from './rents';
export * from './users';
