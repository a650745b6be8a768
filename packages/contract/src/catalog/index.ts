export * from './countries';
export * from './rent-services';
export * from './services';
