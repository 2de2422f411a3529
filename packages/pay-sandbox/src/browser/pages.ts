import type { PaymentMethod } from "../store.js";

/**
 * The HTML of the hosted checkout popup, its loading page, its error page and the sandbox's
 * dashboard. Server-rendered strings: every interpolated value goes through escapeHtml, and
 * the pages' scripts and styles are files of this folder (served from the sandbox's own
 * origin), so the Content-Security-Policy allows no inline code at all.
 */

/** The `type` of the outcome messages the popup posts to the shop page (pay.js checks it). */
export const OUTCOME_MESSAGE_TYPE = "pay:checkout-outcome";

export type PageLang = "pt" | "en";
export type Theme = "light" | "dark";

/** No inline code, nothing from elsewhere, never framed (a payment page must not be clickjacked). */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const STYLESHEET_PATH = "/checkout/assets/pages.css";
export const CHECKOUT_SCRIPT_PATH = "/checkout/assets/checkout.js";
export const DASHBOARD_PATH = "/__sandbox/dashboard";
export const DASHBOARD_SCRIPT_PATH = "/__sandbox/dashboard.js";

/** `pt`, `pt-AO`, `en-GB`...: the two languages the checkout speaks; anything else gets pt, the service's own. */
export const pageLangOf = (lang: string | undefined): PageLang => (/^en(?:-|$)/i.test(lang ?? "") ? "en" : "pt");

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON for a `<script type="application/json">` block: `<` escaped so no `</script>` can close it early. */
const jsonBlock = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** Integer AOA as a shopper in Angola reads it: "12 500 Kz". */
export const formatKwanza = (amount: number) =>
  new Intl.NumberFormat("pt-AO", { style: "currency", currency: "AOA", maximumFractionDigits: 0 }).format(amount);

const TEXT = {
  pt: {
    checkoutTitle: "Pagamento",
    testMode: "Sandbox: nenhum pagamento é real",
    loading: "A preparar o pagamento…",
    customer: "Cliente",
    items: "Artigos",
    chooseMethod: "Escolha como pagar",
    methods: {
      FPMCXEXPRSS: "Carteira móvel (express)",
      FPSOLPGEXT: "Referência bancária",
      FPSOLPG: "Pagamento direto",
    },
    cancel: "Cancelar",
    close: "Fechar",
    processing: "A processar o pagamento…",
    approved: "Pagamento aprovado.",
    pending: "Pague a referência {reference} na entidade {entity}.",
    cancelled: "Pagamento cancelado.",
    failed: "O pagamento falhou: {reason}",
    errorTitle: "Não é possível pagar",
  },
  en: {
    checkoutTitle: "Payment",
    testMode: "Sandbox: no payment is real",
    loading: "Preparing the payment…",
    customer: "Customer",
    items: "Items",
    chooseMethod: "Choose how to pay",
    methods: {
      FPMCXEXPRSS: "Mobile wallet (express)",
      FPSOLPGEXT: "Bank payment reference",
      FPSOLPG: "Direct payment",
    },
    cancel: "Cancel",
    close: "Close",
    processing: "Processing the payment…",
    approved: "Payment approved.",
    pending: "Pay reference {reference} at entity {entity}.",
    cancelled: "Payment cancelled.",
    failed: "The payment failed: {reason}",
    errorTitle: "This payment cannot go ahead",
  },
} satisfies Record<PageLang, unknown>;

function page(options: { lang: PageLang; theme: Theme; title: string; body: string; script?: string }): string {
  return `<!doctype html>
<html lang="${options.lang}" data-theme="${options.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
${options.script ? `<script src="${options.script}" defer></script>` : ""}
</head>
<body>
${options.body}
</body>
</html>
`;
}

export function loadingPage(lang: PageLang): string {
  const text = TEXT[lang];
  return page({
    lang,
    theme: "light",
    title: text.checkoutTitle,
    body: `<main class="card" aria-busy="true"><p class="spinner" role="status">${escapeHtml(text.loading)}</p></main>`,
  });
}

export function errorPage(lang: PageLang, reason: string): string {
  const text = TEXT[lang];
  return page({
    lang,
    theme: "light",
    title: text.errorTitle,
    body: `<main class="card"><h1>${escapeHtml(text.errorTitle)}</h1><p data-error>${escapeHtml(reason)}</p></main>`,
  });
}

export interface CheckoutView {
  lang: PageLang;
  theme: Theme;
  testMode: boolean;
  referenceNumber: string;
  name: string;
  amount: number;
  methods: PaymentMethod[];
  showProcessing: boolean;
  referencePaymentLifeSpan?: number;
  customer?: { name: string; phone: string };
  references?: { referenceDescription: string; referenceQuantity: number; referenceAmount: number }[];
  /** Where the outcome is posted; absent when the page was opened by hand. */
  openerOrigin?: string;
}

export function checkoutPage(view: CheckoutView): string {
  const text = TEXT[view.lang];
  const customer = view.customer
    ? `<p data-customer>${escapeHtml(text.customer)}: ${escapeHtml(view.customer.name)} · ${escapeHtml(view.customer.phone)}</p>`
    : "";
  const references = view.references?.length
    ? `<h2>${escapeHtml(text.items)}</h2><ul class="lines">${view.references
        .map(
          (line) =>
            `<li data-reference-line>${escapeHtml(line.referenceDescription)} × ${escapeHtml(line.referenceQuantity)}` +
            ` <span>${escapeHtml(formatKwanza(line.referenceAmount))}</span></li>`,
        )
        .join("")}</ul>`
    : "";
  const methods = view.methods
    .map(
      (method) =>
        `<button type="button" class="method" data-method="${method}">${escapeHtml(text.methods[method])}</button>`,
    )
    .join("");
  const data = {
    messageType: OUTCOME_MESSAGE_TYPE,
    referenceNumber: view.referenceNumber,
    openerOrigin: view.openerOrigin ?? null,
    showProcessing: view.showProcessing,
    referencePaymentLifeSpan: view.referencePaymentLifeSpan ?? null,
    text: {
      approved: text.approved,
      pending: text.pending,
      cancelled: text.cancelled,
      failed: text.failed,
    },
  };
  return page({
    lang: view.lang,
    theme: view.theme,
    title: `${text.checkoutTitle} ${view.referenceNumber}`,
    script: CHECKOUT_SCRIPT_PATH,
    body: `<main class="card">
${view.testMode ? `<p class="badge">${escapeHtml(text.testMode)}</p>` : ""}
<h1 data-order-name>${escapeHtml(view.name)}</h1>
<p class="amount" data-amount>${escapeHtml(formatKwanza(view.amount))}</p>
${customer}
${references}
<section id="choose" aria-labelledby="choose-title">
<h2 id="choose-title">${escapeHtml(text.chooseMethod)}</h2>
<div class="methods">${methods}</div>
<button type="button" class="secondary" data-cancel>${escapeHtml(text.cancel)}</button>
</section>
<section id="processing" hidden><p class="spinner" role="status">${escapeHtml(text.processing)}</p></section>
<section id="result" hidden aria-live="polite"><p data-result></p><button type="button" data-close>${escapeHtml(text.close)}</button></section>
</main>
<script type="application/json" id="checkout-data">${jsonBlock(data)}</script>`,
  });
}

export function dashboardPage(): string {
  return page({
    lang: "en",
    theme: "light",
    title: "Sandbox dashboard",
    script: DASHBOARD_SCRIPT_PATH,
    body: `<main class="wide">
<h1>Sandbox dashboard</h1>
<p><button type="button" data-refresh>Refresh</button> <span data-status role="status"></span></p>
<h2>Orders</h2>
<table><thead><tr><th>Order</th><th>Reference</th><th>Status</th><th>Amount</th><th>Method</th><th>Payment reference / entity</th><th>Expires</th><th>Actions</th></tr></thead><tbody data-orders></tbody></table>
<h2>Webhook deliveries (latest first)</h2>
<table><thead><tr><th>Delivery</th><th>Order</th><th>Status</th><th>Kind</th><th>State</th><th>Attempts</th><th>Last answer</th></tr></thead><tbody data-deliveries></tbody></table>
</main>`,
  });
}

/**
 * Headers of every page: its CSP; no Referer (the checkout's URL carries the publishable key);
 * and an opener kept, because the checkout posts its outcome to the shop page that opened it.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": PAGE_CSP,
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "unsafe-none",
};
