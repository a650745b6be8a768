export { createFiveSimProvider, FIVESIM_DEFAULT_URL, type FiveSimProviderOptions } from './provider';
