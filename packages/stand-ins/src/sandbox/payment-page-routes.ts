import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PaymentMethod } from './currencies';
import { methodsOf } from './invoice-views';
import { rawBodyOf, sendHtml } from './merchant-api';
import { checkoutPage, notFoundPage, outcomePage } from './pages';
import type { InvoiceStore, SandboxInvoice } from './state';

/**
 * The hosted payment page (`/pay/<uuid>`) and its two buttons, Pay and Cancel. Each answer shows the
 * invoice as it is after expiry is applied, so a late payer sees it expired rather than payable.
 */
export function registerPaymentPages(
  app: FastifyInstance,
  deps: {
    store: InvoiceStore;
    nowMs: () => number;
    expireDue: () => void;
    changeStatus: (invoice: SandboxInvoice, status: string, change?: { method?: PaymentMethod }) => void;
    pagePath: (uuid: string) => string;
  },
): void {
  const { store, nowMs, expireDue, changeStatus, pagePath } = deps;
  const isPayable = (invoice: SandboxInvoice) => invoice.status === 'check' && invoice.expiresAtMs > nowMs();

  const renderInvoice = (reply: FastifyReply, status: number, invoice: SandboxInvoice, notice?: string) =>
    sendHtml(
      reply,
      status,
      isPayable(invoice)
        ? checkoutPage({
            invoice,
            methods: methodsOf(invoice),
            nowMs: nowMs(),
            pagePath: pagePath(invoice.uuid),
            notice,
          })
        : outcomePage({ invoice, notice }),
    );

  const pageRoute = (
    method: 'GET' | 'POST',
    path: string,
    handle: (invoice: SandboxInvoice, request: FastifyRequest, reply: FastifyReply) => unknown,
  ) =>
    app.route({
      method,
      url: path,
      handler: async (request, reply) => {
        expireDue();
        const invoice = store.get((request.params as { uuid: string }).uuid);
        if (!invoice) return sendHtml(reply, 404, notFoundPage());
        return handle(invoice, request, reply);
      },
    });

  const refusal = (invoice: SandboxInvoice, action: 'paid' | 'cancelled') =>
    invoice.status === 'paid' || invoice.status === 'paid_over'
      ? `This invoice is already paid, so it cannot be ${action} again. Nothing changed.`
      : `This invoice can no longer be ${action}: it is ${invoice.isFinal ? 'closed or expired' : 'already being processed'}. Nothing changed.`;

  pageRoute('GET', '/pay/:uuid', (invoice, _request, reply) => renderInvoice(reply, 200, invoice));
  pageRoute('POST', '/pay/:uuid/pay', (invoice, request, reply) => {
    if (!isPayable(invoice)) return renderInvoice(reply, 409, invoice, refusal(invoice, 'paid'));
    const chosen = new URLSearchParams(rawBodyOf(request)).get('method');
    const method = methodsOf(invoice).find((candidate) => candidate.id === chosen);
    changeStatus(invoice, 'paid', { method });
    // Post/redirect/get: reloading the outcome page must not submit the payment again.
    return reply.redirect(pagePath(invoice.uuid), 303);
  });
  pageRoute('POST', '/pay/:uuid/cancel', (invoice, _request, reply) => {
    if (!isPayable(invoice)) return renderInvoice(reply, 409, invoice, refusal(invoice, 'cancelled'));
    changeStatus(invoice, 'cancel');
    return reply.redirect(pagePath(invoice.uuid), 303);
  });
}
