/** Every action of the SMS-Activate protocol SimCode serves, with an example call and answer. */
export interface ProtocolAction {
  name: string;
  summary: string;
  params: Record<string, string>;
  answer: string;
}

export const activationActions: ProtocolAction[] = [
  { name: 'getBalance', summary: 'Your balance in US dollars.', params: {}, answer: 'ACCESS_BALANCE:12.40' },
  {
    name: 'getCountries',
    summary: 'Countries on sale, keyed by the protocol’s numeric id (rent: 1 when rentals are possible).',
    params: {},
    answer: '{"16":{"id":16,"eng":"United Kingdom","visible":1,"retry":1,"rent":1}, …}',
  },
  {
    name: 'getServicesList',
    summary: 'Service codes and names, optionally for one country.',
    params: { country: '16' },
    answer: '{"status":"success","services":[{"code":"tg","name":"Telegram"}, …]}',
  },
  {
    name: 'getOperators',
    summary: 'Operators per country (omit operator when buying to mean any).',
    params: { country: '187' },
    answer: '{"status":"success","countryOperators":{"187":["tmobile","verizon"]}}',
  },
  {
    name: 'getPrices',
    summary: 'Your price in USD and the stock, by country and service.',
    params: { service: 'tg', country: '16' },
    answer: '{"16":{"tg":{"cost":0.52,"count":1204}}}',
  },
  {
    name: 'getTopCountriesByService',
    summary: 'The countries with the most numbers for a service.',
    params: { service: 'tg' },
    answer: '{"0":{"country":16,"count":1204,"price":0.52,"retail_price":0.52}, …}',
  },
  {
    name: 'getNumber',
    summary:
      'Buy a one-time number. Optional: operator (comma list), maxPrice (USD; refused with WRONG_MAX_PRICE:<price>), phoneException (prefixes to avoid).',
    params: { service: 'tg', country: '16', maxPrice: '0.60' },
    answer: 'ACCESS_NUMBER:1042:447700900123',
  },
  {
    name: 'getNumberV2',
    summary: 'The same purchase, answered as JSON.',
    params: { service: 'tg', country: '16' },
    answer: '{"activationId":"1042","phoneNumber":"447700900123","activationCost":"0.52","currency":840, …}',
  },
  {
    name: 'getStatus',
    summary: 'STATUS_WAIT_CODE, STATUS_WAIT_RETRY:<last code>, STATUS_OK:<code> or STATUS_CANCEL.',
    params: { id: '1042' },
    answer: 'STATUS_OK:48213',
  },
  {
    name: 'getStatusV2',
    summary: 'The latest SMS with its text, as JSON.',
    params: { id: '1042' },
    answer:
      '{"verificationType":0,"sms":{"dateTime":"2026-11-24 08:12:03","code":"48213","text":"…"},"call":null}',
  },
  {
    name: 'setStatus',
    summary:
      'status 1: ready (ACCESS_READY); 3: another SMS (ACCESS_RETRY_GET); 6: finish (ACCESS_ACTIVATION); 8: cancel and refund (ACCESS_CANCEL, EARLY_CANCEL_DENIED in the first 2 minutes).',
    params: { id: '1042', status: '8' },
    answer: 'ACCESS_CANCEL',
  },
  {
    name: 'getActiveActivations',
    summary: 'Your live one-time numbers.',
    params: {},
    answer: '{"status":"success","activeActivations":[{"activationId":"1042", …}]}',
  },
  {
    name: 'getHistory',
    summary: 'Your latest orders (limit up to 100).',
    params: { limit: '20' },
    answer:
      '[{"id":1042,"date":"2026-11-24 08:10:00","phone":"447700900123","sms":["…"],"cost":0.52,"status":"6", …}]',
  },
];

export const rentActions: ProtocolAction[] = [
  {
    name: 'getRentServicesAndCountries',
    summary: 'Rent prices for rent_time hours (4 to 720) in a country.',
    params: { country: '187', rent_time: '24' },
    answer: '{"countries":{"0":187},"operators":{"0":"any"},"services":{"tg":{"cost":2.1,"quant":40}}}',
  },
  {
    name: 'getRentNumber',
    summary: 'Rent a number.',
    params: { service: 'tg', country: '187', rent_time: '24' },
    answer: '{"status":"success","phone":{"id":77,"endDate":"2026-11-25T08:10:00","number":"12025550123"}}',
  },
  {
    name: 'getRentStatus',
    summary: 'The rent’s SMS, newest first (STATUS_WAIT_CODE while none).',
    params: { id: '77' },
    answer:
      '{"status":"success","quantity":"1","values":{"0":{"phoneFrom":"Telegram","text":"…","service":"tg","date":"…"}}}',
  },
  {
    name: 'setRentStatus',
    summary: 'status 1: finish; 2: cancel and refund (within 20 minutes, before any SMS; else CANT_CANCEL).',
    params: { id: '77', status: '2' },
    answer: '{"status":"success"}',
  },
  {
    name: 'getRentList',
    summary: 'Your live rents.',
    params: {},
    answer: '{"status":"success","values":{"0":{"id":"77","phone":"12025550123"}}}',
  },
  {
    name: 'getContinueRentPriceNumber',
    summary: 'The price of extending a rent.',
    params: { id: '77', rent_time: '24' },
    answer: '{"status":"success","price":2.1,"currency":840}',
  },
  {
    name: 'continueRentNumber',
    summary: 'Extend a rent (charged).',
    params: { id: '77', rent_time: '24' },
    answer: '{"status":"success","phone":{"id":77,"endDate":"2026-11-26T08:10:00","number":"12025550123"}}',
  },
];

export const errorTokens: Array<[string, string]> = [
  ['BAD_KEY', 'The key is unknown, revoked, or used from an address outside its allow-list.'],
  ['BAD_ACTION', 'Unknown action or malformed parameters.'],
  ['BAD_SERVICE', 'Unknown service code.'],
  ['BAD_COUNTRY', 'Unknown country id (rent actions: WRONG_COUNTRY).'],
  ['NO_NUMBERS', 'Nothing in stock for this service, country or operator.'],
  ['NO_BALANCE', 'Not enough balance, or a spending or active-orders cap of the key (named in its log).'],
  ['WRONG_MAX_PRICE:<price>', 'maxPrice is below the current price, given after the colon.'],
  ['WRONG_EXCEPTION_PHONE', 'phoneException is not a list of digit prefixes.'],
  ['NO_ACTIVATION', 'No such order of yours (another account’s ids answer this too).'],
  ['BAD_STATUS', 'The order is not in a state that allows this status.'],
  ['EARLY_CANCEL_DENIED', 'Cancelling is possible 2 minutes after the purchase.'],
  [
    "BANNED:'YYYY-m-d H-i-s'",
    'Too many calls for the key or the account (HTTP 429): wait until the given UTC time.',
  ],
  ['ERROR_SQL', 'A server-side failure; nothing was charged that is not refunded.'],
];
