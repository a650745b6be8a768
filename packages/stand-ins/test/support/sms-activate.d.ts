/** The npm client `sms-activate` (1.0.1) ships no types: the calls the tests use. */
declare module 'sms-activate' {
  export default class SMSActivate {
    constructor(apiToken: string);
    session: { defaults: { baseURL?: string } };
    getBalance(withCashBack?: boolean): Promise<number | null>;
    getNumber(
      service: string,
      country?: number,
      forward?: boolean,
    ): Promise<{ id: number; number: number } | null>;
    setStatus(id: number, status: number, forward?: boolean): Promise<string>;
    getCode(id: number): Promise<string | null>;
    getStatus(id: number): Promise<string>;
  }
}
