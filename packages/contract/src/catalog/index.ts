export * from './countries';
export * from './lookup';
export * from './rent-services';
export * from './services';
