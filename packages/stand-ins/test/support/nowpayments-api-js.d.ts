// The published package's `types` lead into its TypeScript sources, which do not compile under this
// project's settings; tsconfig maps the module here instead, to what the tests call.
export default class NowPaymentsApi {
  constructor(options: { apiKey: string });
  status(): Promise<unknown>;
  getMinimumPaymentAmount(options: { currency_from: string; currency_to: string }): Promise<unknown>;
  createInvoice(options: Record<string, unknown>): Promise<unknown>;
  getPaymentStatus(options: { payment_id: string }): Promise<unknown>;
  getListPayments(options?: Record<string, unknown>): Promise<unknown>;
}
