import { escapeHtml } from '../html';
import { currency, formatAmount } from './currencies';
import { facts, layout, noticeBlock } from './pages';
import type { SandboxInvoice } from './state';
import type { SandboxWallet } from './wallets';

export interface WalletView {
  wallet: SandboxWallet;
  /** The wallet's deposits, newest first. */
  deposits: SandboxInvoice[];
  /** Where the deposit form posts. */
  depositPath: string;
  notice?: string;
}

/**
 * A static wallet's page: its address, and a form that "sends" coins to it, as a payer's wallet app would.
 * A deposit can arrive confirmed, or seen and still waiting for confirmations (confirmed later through
 * the control API), so a tester sees both webhooks.
 */
export function walletPage({ wallet, deposits, depositPath, notice }: WalletView): string {
  const coin = currency(wallet.currency);
  const step = formatAmount(1, coin);
  const rows: Array<[string, string]> = [
    ['Coin', `${escapeHtml(wallet.currency)} · ${escapeHtml(wallet.network)}`],
    ['Address', `<span class="mono">${escapeHtml(wallet.address)}</span>`],
    ['Order', `<span class="mono">${escapeHtml(wallet.orderId)}</span>`],
    ...deposits.map((deposit): [string, string] => [
      'Deposit',
      `${formatAmount(deposit.payment?.amountUnits ?? 0, coin)} ${escapeHtml(wallet.currency)} · ${escapeHtml(deposit.status)}`,
    ]),
  ];
  const content = `
<h1 class="amount" style="font-size:22px">Static wallet</h1>
${noticeBlock(notice)}
${facts(rows)}
<form method="post" action="${escapeHtml(depositPath)}">
<fieldset>
<legend>Send a deposit to this address (sandbox)</legend>
<label for="amount">Amount (${escapeHtml(wallet.currency)})</label>
<input id="amount" name="amount" inputmode="decimal" required pattern="[0-9]+(\\.[0-9]+)?" step="${step}"
 style="display:block;width:100%;margin-top:6px;padding:10px;border-radius:10px;border:1.5px solid var(--line);font:inherit">
</fieldset>
<div class="actions">
<button class="primary" type="submit" name="status" value="paid">Send deposit</button>
<button class="secondary" type="submit" name="status" value="confirm_check">Send, still confirming</button>
</div>
</form>
<p class="note">Nothing reaches a blockchain: the deposit is made up and announced by a signed webhook.</p>`;
  return layout('Static wallet', content);
}
