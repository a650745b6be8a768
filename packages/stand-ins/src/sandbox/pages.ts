import { escapeHtml } from '../html';
import { convert, currency, formatAmount, type PaymentMethod } from './currencies';
import type { SandboxInvoice } from './state';

/**
 * The sandbox's hosted payment page. It opens in a popup (about 500x700) or on a phone, under the site's
 * Content-Security-Policy: no scripts at all, inline styles only, nothing loaded from elsewhere. Buttons
 * are plain forms, the countdown bar is a CSS animation and a meta refresh reloads the page at expiry.
 */

const STYLE = `
:root{--bg:#eef1f8;--card:#fff;--text:#151a2d;--muted:#5d6580;--line:#e3e7f0;--accent:#3d5afe;--accent-ink:#fff;
--soft:#f5f7fc;--ok:#12805c;--ok-soft:#e3f6ee;--bad:#b3261e;--bad-soft:#fdeceb;--wait:#8a5a00;--wait-soft:#fff4d6;
color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0e1120;--card:#171b2e;--text:#eef0f8;--muted:#9aa2bd;--line:#2a3050;
--accent:#7088ff;--soft:#1e2339;--ok:#4fd1a0;--ok-soft:#123328;--bad:#ff8a80;--bad-soft:#3a1a1a;--wait:#ffcf66;--wait-soft:#3a2f12}}
*{box-sizing:border-box}
html,body{margin:0}
body{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;background:var(--bg);
color:var(--text);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.card{width:100%;max-width:440px;background:var(--card);border-radius:18px;overflow:hidden;
box-shadow:0 1px 2px rgba(16,24,64,.06),0 12px 32px rgba(16,24,64,.12)}
.banner{padding:7px 14px;font-size:12px;font-weight:600;letter-spacing:.02em;text-align:center;color:#4a3300;
background:repeating-linear-gradient(-45deg,#ffd24d 0 12px,#ffc61a 12px 24px)}
.body{padding:20px 22px 22px}
.brand{display:flex;align-items:center;gap:10px;font-weight:650;font-size:14px;color:var(--muted)}
.brand svg{flex:none}
.brand .name{flex:1}
.tag{font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.06em;padding:3px 8px;border-radius:99px;
background:var(--soft);color:var(--muted)}
.amount{margin:18px 0 4px;font-size:34px;font-weight:750;letter-spacing:-.02em}
.amount small{font-size:16px;font-weight:600;color:var(--muted);margin-left:6px;letter-spacing:0}
.facts{margin:12px 0 0;display:grid;grid-template-columns:auto 1fr;gap:6px 14px;font-size:13.5px}
.facts dt{color:var(--muted)}
.facts dd{margin:0;text-align:right;min-width:0;overflow-wrap:anywhere}
.muted{color:var(--muted)}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.timer{margin-top:12px;height:5px;border-radius:99px;background:var(--soft);overflow:hidden}
.timer span{display:block;height:100%;background:var(--accent);border-radius:99px;animation:drain linear forwards}
@keyframes drain{to{width:0}}
fieldset{border:0;margin:18px 0 0;padding:0}
legend{padding:0;margin-bottom:8px;font-size:13px;font-weight:650;color:var(--muted)}
.methods{display:grid;grid-template-columns:1fr 1fr;gap:8px}
.method input{position:absolute;opacity:0;pointer-events:none}
.method label{display:flex;flex-direction:column;gap:1px;padding:9px 11px;border:1.5px solid var(--line);border-radius:12px;
cursor:pointer;transition:border-color .15s,background .15s}
.method label b{font-size:14px}
.method label small{font-size:12px;color:var(--muted)}
.method input:checked+label{border-color:var(--accent);background:var(--soft)}
.method input:focus-visible+label{outline:2px solid var(--accent);outline-offset:2px}
.actions{margin-top:18px;display:grid;gap:8px}
.actions form{margin:0}
button,.button{display:block;width:100%;padding:12px 16px;border-radius:12px;border:0;font:inherit;font-weight:650;
text-align:center;text-decoration:none;cursor:pointer}
.primary{background:var(--accent);color:var(--accent-ink)}
.primary:hover{filter:brightness(1.08)}
.secondary{background:transparent;color:var(--muted);border:1.5px solid var(--line)}
.secondary:hover{color:var(--text)}
button:focus-visible,.button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.note{margin:14px 0 0;font-size:12px;color:var(--muted);text-align:center}
.notice{margin:16px 0 0;padding:10px 12px;border-radius:10px;font-size:13.5px;background:var(--wait-soft);color:var(--wait)}
.outcome{text-align:center;padding-top:6px}
.outcome .icon{width:64px;height:64px;margin:14px auto 10px;border-radius:50%;display:flex;align-items:center;
justify-content:center;font-size:30px;font-weight:700}
.ok .icon{background:var(--ok-soft);color:var(--ok)}
.bad .icon{background:var(--bad-soft);color:var(--bad)}
.wait .icon{background:var(--wait-soft);color:var(--wait)}
.outcome h1{margin:0 0 6px;font-size:21px;letter-spacing:-.01em}
.outcome p{margin:0 auto;max-width:340px;color:var(--muted)}
.outcome .facts{text-align:left}
@media (max-width:380px){.banner{font-size:11px;padding:7px 8px}.body{padding:16px}.amount{font-size:30px}.method label{padding:8px 10px}}
`;

const LOGO = `<svg width="26" height="26" viewBox="0 0 26 26" aria-hidden="true"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6a7dff"/><stop offset="1" stop-color="#2ec5a7"/></linearGradient></defs><rect width="26" height="26" rx="8" fill="url(#g)"/><path d="M17.5 9.2a5.4 5.4 0 1 0 0 7.6" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/></svg>`;

export function layout(title: string, content: string, refreshSeconds?: number): string {
  const refresh =
    refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${refreshSeconds}">`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
${refresh}<title>${escapeHtml(title)} · Payment sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<main class="card">
<div class="banner">SANDBOX · simulated payment, no real money</div>
<div class="body">
<div class="brand">${LOGO}<span class="name">Cryptomus sandbox</span><span class="tag">Test mode</span></div>
${content}
</div>
</main>
</body>
</html>`;
}

function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** The amount with thousands separated: `$1,234.56` for dollars, `1,234.00000000` for a coin. */
function figure(units: number, code: string): string {
  const grouped = formatAmount(units, currency(code)).replace(/\B(?=(\d{3})+\.)/g, ',');
  return code === 'USD' ? `$${grouped}` : grouped;
}

const money = (units: number, code: string) =>
  code === 'USD' ? figure(units, code) : `${figure(units, code)} ${code}`;

export function facts(rows: Array<[string, string]>): string {
  return `<dl class="facts">${rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>`;
}

export const noticeBlock = (notice: string | undefined) =>
  notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : '';

export interface CheckoutView {
  invoice: SandboxInvoice;
  /** The ways it can be paid; the first is preselected. */
  methods: readonly PaymentMethod[];
  nowMs: number;
  /** Where this page's forms post: the pay page's own path. */
  pagePath: string;
  notice?: string;
}

/** The invoice while it can still be paid. */
export function checkoutPage({ invoice, methods, nowMs, pagePath, notice }: CheckoutView): string {
  const secondsLeft = Math.max(0, Math.ceil((invoice.expiresAtMs - nowMs) / 1000));
  const lifetimeMs = Math.max(1, invoice.expiresAtMs - invoice.createdAtMs);
  const shareLeft = Math.min(100, Math.max(0, ((invoice.expiresAtMs - nowMs) / lifetimeMs) * 100));
  const expiresAt = new Date(invoice.expiresAtMs).toISOString().slice(11, 16);
  // A fixed coin is paid in its own amount; the dollar stablecoins pay the dollar amount itself.
  const payIn = invoice.payerCurrency ?? invoice.currency;
  const payUnits = convert(invoice.amountUnits, currency(invoice.currency), currency(payIn));
  const converted: Array<[string, string]> =
    payIn === invoice.currency ? [] : [['To pay', money(payUnits, payIn)]];
  const choices = methods
    .map(
      (method, index) => `<div class="method">
<input type="radio" name="method" id="m-${method.id}" value="${method.id}"${index === 0 ? ' checked' : ''}>
<label for="m-${method.id}"><b>${method.currency}</b><small>${method.networkLabel}</small></label>
</div>`,
    )
    .join('');
  const content = `
<div class="amount">${figure(invoice.amountUnits, invoice.currency)}<small>${escapeHtml(invoice.currency)}</small></div>
${facts([
  ...converted,
  ['Order', `<span class="mono">${escapeHtml(invoice.orderId)}</span>`],
  ['Expires in', `${formatTimeLeft(secondsLeft)} <span class="muted">(${expiresAt} UTC)</span>`],
])}
<div class="timer" aria-hidden="true"><span style="width:${shareLeft.toFixed(2)}%;animation-duration:${secondsLeft}s"></span></div>
${noticeBlock(notice)}
<form method="post" action="${escapeHtml(pagePath)}/pay">
<fieldset>
<legend>Pay with</legend>
<div class="methods">${choices}</div>
</fieldset>
<div class="actions">
<button class="primary" type="submit">Pay ${money(payUnits, payIn)}</button>
</div>
</form>
<form method="post" action="${escapeHtml(pagePath)}/cancel" class="actions">
<button class="secondary" type="submit">Cancel payment</button>
</form>
<p class="note">Pressing Pay marks the invoice as paid and notifies the shop, exactly as a real payment would.</p>`;
  // Reloading at expiry shows the expired state without any script.
  return layout(`Pay ${money(payUnits, payIn)}`, content, secondsLeft + 1);
}

type Tone = 'ok' | 'bad' | 'wait';

const OUTCOMES: Record<string, { tone: Tone; title: string; text: string }> = {
  paid: {
    tone: 'ok',
    title: 'Payment received',
    text: 'You can close this window and return to the site.',
  },
  paid_over: {
    tone: 'ok',
    title: 'Payment received',
    text: 'You paid a little more than asked. You can close this window and return to the site.',
  },
  cancel: {
    tone: 'bad',
    title: 'Invoice closed',
    text: 'This invoice was cancelled or has expired. Nothing was charged. Create a new top-up on the site to try again.',
  },
  fail: {
    tone: 'bad',
    title: 'Payment failed',
    text: 'Nothing was charged. Please try again from the site.',
  },
  system_fail: {
    tone: 'bad',
    title: 'Payment failed',
    text: 'A system error stopped this payment. Nothing was charged. Please try again from the site.',
  },
  wrong_amount: {
    tone: 'bad',
    title: 'Amount too low',
    text: 'Less than the invoice amount arrived. Please contact support on the site.',
  },
  refund_process: { tone: 'wait', title: 'Refund in progress', text: 'This payment is being refunded.' },
  refund_fail: { tone: 'bad', title: 'Refund failed', text: 'Please contact support on the site.' },
  refund_paid: { tone: 'bad', title: 'Payment refunded', text: 'This payment was returned to the payer.' },
};

const PENDING_OUTCOME = {
  tone: 'wait' as Tone,
  title: 'Confirming your payment',
  text: 'The transaction was seen and is being confirmed. This page updates by itself.',
};

const ICONS: Record<Tone, string> = { ok: '&#10003;', bad: '&#10005;', wait: '&#8987;' };

export interface OutcomeView {
  invoice: SandboxInvoice;
  notice?: string;
}

/** The invoice once it cannot be paid from this page: paid, closed or being confirmed. */
export function outcomePage({ invoice, notice }: OutcomeView): string {
  const outcome = OUTCOMES[invoice.status] ?? PENDING_OUTCOME;
  const backUrl = outcome.tone === 'ok' ? (invoice.urlSuccess ?? invoice.urlReturn) : invoice.urlReturn;
  const paid = invoice.payment;
  const rows: Array<[string, string]> = [
    ['Amount', `${figure(invoice.amountUnits, invoice.currency)} ${escapeHtml(invoice.currency)}`],
    ['Order', `<span class="mono">${escapeHtml(invoice.orderId)}</span>`],
  ];
  if (paid)
    rows.push([
      'Paid',
      `${formatAmount(paid.amountUnits, currency(paid.payerCurrency))} ${escapeHtml(paid.payerCurrency)}`,
    ]);
  const content = `
<div class="outcome ${outcome.tone}">
<div class="icon" aria-hidden="true">${ICONS[outcome.tone]}</div>
<h1>${escapeHtml(outcome.title)}</h1>
<p>${escapeHtml(outcome.text)}</p>
</div>
${noticeBlock(notice)}
${facts(rows)}
${backUrl ? `<div class="actions"><a class="button primary" href="${escapeHtml(backUrl)}">Return to the site</a></div>` : ''}`;
  return layout(outcome.title, content, outcome === PENDING_OUTCOME ? 5 : undefined);
}

/** An unknown invoice id: most likely a mistyped or very old link. */
export function notFoundPage(): string {
  return layout(
    'Invoice not found',
    `<div class="outcome bad">
<div class="icon" aria-hidden="true">?</div>
<h1>Invoice not found</h1>
<p>This payment link is not valid or the invoice no longer exists. Start a new top-up on the site.</p>
</div>`,
  );
}
