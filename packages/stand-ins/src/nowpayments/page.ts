import { escapeHtml } from '../html';

/**
 * The NOWPayments sandbox's invoice page: no scripts, inline styles only, plain forms, so it works under
 * the site's Content-Security-Policy and in a popup. Three pay buttons let a tester pay exactly, in part,
 * or too much.
 */

const STYLE = `body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;
background:#f3f4f8;color:#16182b;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
.card{width:100%;max-width:420px;background:#fff;border-radius:16px;padding:20px 22px;box-shadow:0 10px 30px rgba(20,24,60,.12)}
.banner{margin:-20px -22px 16px;padding:7px;border-radius:16px 16px 0 0;text-align:center;font-size:12px;font-weight:600;
background:#ffd24d;color:#4a3300}
h1{font-size:28px;margin:6px 0}label{display:flex;gap:8px;align-items:center;padding:8px 10px;border:1.5px solid #e1e4ee;
border-radius:10px;margin:6px 0}button,a.button{display:block;width:100%;box-sizing:border-box;margin-top:8px;padding:11px;
border-radius:10px;border:0;font:inherit;font-weight:650;text-align:center;text-decoration:none;cursor:pointer}
.primary{background:#2d5bff;color:#fff}.secondary{background:#eef0f6;color:#16182b}.muted{color:#5d6580;font-size:13px}`;

const layout = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · NOWPayments sandbox</title><style>${STYLE}</style></head>
<body><main class="card"><div class="banner">NOWPayments sandbox · no real money</div>${body}</main></body></html>`;

export interface PayPageView {
  invoiceId: string;
  priceCents: number;
  orderDescription: string | null;
  coins: { code: string; label: string; amount: string }[];
  action: string;
  cancelUrl: string | null;
}

export function nowPaymentsPayPage(view: PayPageView): string {
  const coins = view.coins
    .map(
      (coin, index) =>
        `<label><input type="radio" name="coin" value="${escapeHtml(coin.code)}"${index === 0 ? ' checked' : ''}>
<span>${escapeHtml(coin.label)}</span><span class="muted">${escapeHtml(coin.amount)}</span></label>`,
    )
    .join('');
  const dollars = `${Math.floor(view.priceCents / 100)}.${String(view.priceCents % 100).padStart(2, '0')}`;
  return layout(
    'Invoice',
    `<p class="muted">Invoice ${escapeHtml(view.invoiceId)}${view.orderDescription ? ` · ${escapeHtml(view.orderDescription)}` : ''}</p>
<h1>${dollars} USD</h1>
<form method="post" action="${escapeHtml(view.action)}"><input type="hidden" name="iid" value="${escapeHtml(view.invoiceId)}">
<fieldset style="border:0;padding:0;margin:12px 0 0"><legend class="muted">Pay with</legend>${coins}</fieldset>
<button class="primary" name="amount" value="exact">Pay in sandbox</button>
<button class="secondary" name="amount" value="partial">Pay half (partial payment)</button>
<button class="secondary" name="amount" value="over">Pay 10% more (overpayment)</button></form>
${view.cancelUrl ? `<a class="button secondary" href="${escapeHtml(view.cancelUrl)}">Cancel</a>` : ''}`,
  );
}

export function nowPaymentsResultPage(view: { title: string; backUrl?: string | null }): string {
  return layout(
    view.title,
    `<h1 style="font-size:22px">${escapeHtml(view.title)}</h1>
${view.backUrl ? `<a class="button primary" href="${escapeHtml(view.backUrl)}">Back to the shop</a>` : ''}`,
  );
}
