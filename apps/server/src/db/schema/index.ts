export * from './activations';
export * from './api-keys';
export * from './ledger';
export * from './payments';
export * from './rentals';
export * from './stand-ins';
export * from './tickets';
export * from './users';
