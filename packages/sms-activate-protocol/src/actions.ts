/**
 * How a server of the family answers: 'classic' is SMS-Activate's (HTTP 200, text tokens, rent errors as
 * JSON), 'hero' is Hero-SMS's (HTTP status + `{title, details, info}`, 204 for finish/cancel actions). A
 * server has one style for its answers and one for its refusals: clones of the family mix them.
 */
export type ResponseStyle = 'classic' | 'hero';

/** Where classic SMS-Activate puts an action's refusal token: plain text, or JSON `message` / `error`. */
export type ClassicRefusalShape = 'text' | 'message' | 'error';

interface ActionSpec {
  refusal: ClassicRefusalShape;
  /** The styles whose servers have the action; every style when absent. */
  styles?: readonly ResponseStyle[];
}

/** The `handler_api.php` actions a server of ours answers, with how classic servers refuse each. */
export const PROTOCOL_ACTIONS = {
  getBalance: { refusal: 'text' },
  getBalanceAndCashBack: { refusal: 'text' },
  getNumber: { refusal: 'text' },
  getNumberV2: { refusal: 'text' },
  getStatus: { refusal: 'text' },
  getStatusV2: { refusal: 'text' },
  setStatus: { refusal: 'text' },
  // SMS-Activate has no getAllSms (protocols.md A.4.15).
  getAllSms: { refusal: 'text', styles: ['hero'] },
  getHistory: { refusal: 'text' },
  finishActivation: { refusal: 'text' },
  cancelActivation: { refusal: 'text' },
  getActiveActivations: { refusal: 'error' },
  getNumbersStatus: { refusal: 'text' },
  getTopCountriesByService: { refusal: 'text' },
  getPrices: { refusal: 'text' },
  // Not in Hero's API (protocols.md A.4.15).
  getPricesVerification: { refusal: 'text', styles: ['classic'] },
  getCountries: { refusal: 'text' },
  getOperators: { refusal: 'error' },
  getServicesList: { refusal: 'error' },
  getRentServicesAndCountries: { refusal: 'message' },
  getRentNumber: { refusal: 'message' },
  getRentStatus: { refusal: 'message' },
  setRentStatus: { refusal: 'message' },
  getRentList: { refusal: 'message' },
  continueRentNumber: { refusal: 'message' },
  getContinueRentPriceNumber: { refusal: 'message' },
  continueRentInfo: { refusal: 'message' },
} as const satisfies Readonly<Record<string, ActionSpec>>;

export type ProtocolAction = keyof typeof PROTOCOL_ACTIONS;

/** The action by its name as a request sends it; undefined for one the protocol has not (`constructor` ...). */
export function protocolAction(name: string): ProtocolAction | undefined {
  return Object.hasOwn(PROTOCOL_ACTIONS, name) ? (name as ProtocolAction) : undefined;
}

/** Whether servers of the style have the action. */
export function offersAction(action: ProtocolAction, style: ResponseStyle): boolean {
  const spec: ActionSpec = PROTOCOL_ACTIONS[action];
  return spec.styles?.includes(style) ?? true;
}
