/**
 * Every action of the SMS-Activate protocol SimCode serves, with an example call and answer. What an action
 * does is the `apiDocs` catalogue's `actions.<name>`; what an error answer means, its `errors.<id>`.
 */
export interface ProtocolAction {
  name: string;
  params: Record<string, string>;
  response: string;
}

export const activationActions: ProtocolAction[] = [
  { name: 'getBalance', params: {}, response: 'ACCESS_BALANCE:12.40' },
  {
    name: 'getCountries',
    params: {},
    response: '{"16":{"id":16,"eng":"United Kingdom","visible":1,"retry":1,"rent":1}, …}',
  },
  {
    name: 'getServicesList',
    params: { country: '16' },
    response: '{"status":"success","services":[{"code":"tg","name":"Telegram"}, …]}',
  },
  {
    name: 'getOperators',
    params: { country: '187' },
    response: '{"status":"success","countryOperators":{"187":["tmobile","verizon"]}}',
  },
  {
    name: 'getPrices',
    params: { service: 'tg', country: '16' },
    response: '{"16":{"tg":{"cost":0.52,"count":1204}}}',
  },
  {
    name: 'getTopCountriesByService',
    params: { service: 'tg' },
    response: '{"0":{"country":16,"count":1204,"price":0.52,"retail_price":0.52}, …}',
  },
  {
    name: 'getNumber',
    params: { service: 'tg', country: '16', maxPrice: '0.60' },
    response: 'ACCESS_NUMBER:1042:447700900123',
  },
  {
    name: 'getNumberV2',
    params: { service: 'tg', country: '16' },
    response:
      '{"activationId":"1042","phoneNumber":"447700900123","activationCost":"0.52","currency":840, …}',
  },
  {
    name: 'getStatus',
    params: { id: '1042' },
    response: 'STATUS_OK:48213',
  },
  {
    name: 'getStatusV2',
    params: { id: '1042' },
    response:
      '{"verificationType":0,"sms":{"dateTime":"2026-11-24 08:12:03","code":"48213","text":"…"},"call":null}',
  },
  {
    name: 'setStatus',
    params: { id: '1042', status: '8' },
    response: 'ACCESS_CANCEL',
  },
  {
    name: 'getActiveActivations',
    params: {},
    response: '{"status":"success","activeActivations":[{"activationId":"1042", …}]}',
  },
  {
    name: 'getHistory',
    params: { limit: '20' },
    response:
      '[{"id":1042,"date":"2026-11-24 08:10:00","phone":"447700900123","sms":["…"],"cost":0.52,"status":"6", …}]',
  },
];

export const rentActions: ProtocolAction[] = [
  {
    name: 'getRentServicesAndCountries',
    params: { country: '187', rent_time: '24' },
    response: '{"countries":{"0":187},"operators":{"0":"any"},"services":{"tg":{"cost":2.1,"quant":40}}}',
  },
  {
    name: 'getRentNumber',
    params: { service: 'tg', country: '187', rent_time: '24' },
    response: '{"status":"success","phone":{"id":77,"endDate":"2026-11-25T08:10:00","number":"12025550123"}}',
  },
  {
    name: 'getRentStatus',
    params: { id: '77' },
    response:
      '{"status":"success","quantity":"1","values":{"0":{"phoneFrom":"Telegram","text":"…","service":"tg","date":"…"}}}',
  },
  {
    name: 'setRentStatus',
    params: { id: '77', status: '2' },
    response: '{"status":"success"}',
  },
  {
    name: 'getRentList',
    params: {},
    response: '{"status":"success","values":{"0":{"id":"77","phone":"12025550123"}}}',
  },
  {
    name: 'getContinueRentPriceNumber',
    params: { id: '77', rent_time: '24' },
    response: '{"status":"success","price":2.1,"currency":840}',
  },
  {
    name: 'continueRentNumber',
    params: { id: '77', rent_time: '24' },
    response: '{"status":"success","phone":{"id":77,"endDate":"2026-11-26T08:10:00","number":"12025550123"}}',
  },
];

/** The protocol's error answers. */
export const errorTokens: string[] = [
  'BAD_KEY',
  'BAD_ACTION',
  'BAD_SERVICE',
  'BAD_COUNTRY',
  'NO_NUMBERS',
  'NO_BALANCE',
  'WRONG_MAX_PRICE:<price>',
  'WRONG_EXCEPTION_PHONE',
  'NO_ACTIVATION',
  'BAD_STATUS',
  'EARLY_CANCEL_DENIED',
  "BANNED:'YYYY-m-d H-i-s'",
  'ERROR_SQL',
];

/** An error answer without its value ('WRONG_MAX_PRICE:<price>' → 'WRONG_MAX_PRICE'), naming its meaning in the catalogue. */
export function errorName(token: string): string {
  return token.split(':')[0]!;
}
