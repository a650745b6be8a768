import type { FastifyInstance, FastifyReply } from 'fastify';
import type { StandInLogger } from '../logger';
import { currency } from './currencies';
import { controlView } from './invoice-views';
import {
  type ApiAnswer,
  failure,
  invalid,
  type MerchantRoute,
  ok,
  rawBodyOf,
  sendHtml,
} from './merchant-api';
import { notFoundPage } from './pages';
import type { InvoiceStore, SandboxInvoice } from './state';
import { validateCreateWallet, validateDeposit } from './validation';
import { walletPage } from './wallet-page';
import { newDeposit, newWallet, type SandboxWallet, type WalletStore, walletObject } from './wallets';

export interface StaticWalletsDeps {
  merchantId: string;
  publicUrl: () => string;
  wallets: WalletStore;
  invoices: InvoiceStore;
  nowMs: () => number;
  logger: StandInLogger;
  /** Moves a deposit to a status and sends its webhook, as every status change of the sandbox does. */
  announce(deposit: SandboxInvoice, status: string): void;
}

type ControlRoute = (path: string, handle: (body: Record<string, unknown>) => ApiAnswer) => unknown;

/**
 * Static wallets of the Cryptomus sandbox: `v1/wallet` in the merchant API, a wallet page where a tester
 * sends it coins, and `/control/wallet/deposit` for tests.
 */
export function createStaticWallets(deps: StaticWalletsDeps) {
  const { wallets, invoices, logger } = deps;
  const walletPath = (prefix: string, uuid: string) => `${prefix}/wallet/${encodeURIComponent(uuid)}`;

  /** `v1/wallet`: the wallet of this order id, created on the first call (Cryptomus returns it again). */
  function createWallet(body: Record<string, unknown>, walletUrl: (uuid: string) => string): ApiAnswer {
    const input = validateCreateWallet(body);
    if ('errors' in input) return invalid(input.errors);
    const existing = wallets.getByOrderId(input.value.orderId);
    if (existing) return ok(walletObject(existing));
    const wallet = newWallet(input.value, deps.merchantId, walletUrl, deps.nowMs());
    wallets.add(wallet);
    logger.info({ uuid: wallet.uuid, orderId: wallet.orderId }, 'payment sandbox static wallet created');
    return ok(walletObject(wallet));
  }

  /** Coins "arrive" at a static wallet: a new payment of type wallet, confirmed or still confirming. */
  function deposit(wallet: SandboxWallet, body: Record<string, unknown>): ApiAnswer {
    const input = validateDeposit(body, currency(wallet.currency));
    if ('errors' in input) return invalid(input.errors);
    const record = newDeposit(wallet, input.value.amountUnits, deps.nowMs());
    invoices.add(record);
    deps.announce(record, input.value.status);
    return ok(controlView(record));
  }

  const depositsOf = (wallet: SandboxWallet) =>
    [...invoices.all()].filter((invoice) => invoice.walletUuid === wallet.uuid).reverse();

  return {
    merchantRoute(prefix: string): MerchantRoute {
      const walletUrl = (uuid: string) =>
        `${deps.publicUrl().replace(/\/+$/, '')}${walletPath(prefix, uuid)}`;
      return { method: 'POST', path: '/v1/wallet', handle: ({ body }) => createWallet(body, walletUrl) };
    },

    register(app: FastifyInstance, controlRoute: ControlRoute): void {
      const prefix = app.prefix;
      // `{uuid | address, amount, status?: 'paid' | 'confirm_check'}`: a deposit to a static wallet.
      controlRoute('/control/wallet/deposit', (body) => {
        const wallet =
          typeof body.uuid === 'string'
            ? wallets.get(body.uuid)
            : typeof body.address === 'string'
              ? wallets.getByAddress(body.address)
              : undefined;
        return wallet ? deposit(wallet, body) : failure(404, 'Wallet not found');
      });

      const render = (reply: FastifyReply, status: number, wallet: SandboxWallet, notice?: string) =>
        sendHtml(
          reply,
          status,
          walletPage({
            wallet,
            deposits: depositsOf(wallet),
            depositPath: `${walletPath(prefix, wallet.uuid)}/deposit`,
            notice,
          }),
        );
      app.get<{ Params: { uuid: string } }>('/wallet/:uuid', async (request, reply) => {
        const wallet = wallets.get(request.params.uuid);
        return wallet ? render(reply, 200, wallet) : sendHtml(reply, 404, notFoundPage());
      });
      app.post<{ Params: { uuid: string } }>('/wallet/:uuid/deposit', async (request, reply) => {
        const wallet = wallets.get(request.params.uuid);
        if (!wallet) return sendHtml(reply, 404, notFoundPage());
        const answer = deposit(wallet, Object.fromEntries(new URLSearchParams(rawBodyOf(request))));
        if (answer.status !== 200) return render(reply, 422, wallet, 'Enter a positive amount of the coin.');
        // Post/redirect/get: reloading the page must not send the deposit again.
        return reply.redirect(walletPath(prefix, wallet.uuid), 303);
      });
    },
  };
}
