export {
  createSmsActivateProvider,
  parseSmsActivateWebhook,
  type SmsActivateProviderOptions,
} from './provider';
export { type ProviderIdMap, SMS_ACTIVATE_COUNTRY_IDS } from './provider-ids';
