export {
  createSmsActivateProvider,
  parseSmsActivateWebhook,
  type SmsActivateProviderOptions,
} from './provider';
