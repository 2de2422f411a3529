"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import {
  PayOrderError,
  requestPayOrder,
  type CheckoutDetails,
  type CreatedPayOrder,
} from "@/components/checkout/pay-button/request-order";
import { idSelector } from "@/components/checkout/pay-button/selector";
import { dictionary } from "@/lib/i18n/dictionaries";
import { orderErrorMessage } from "@/lib/cart/cart-notices";
import { payButtonOptions, type ShopLang } from "@/lib/pay/sdk/config";
import { isPopupBlockedError } from "@/lib/pay/sdk/errors";
import { loadPaySdk } from "@/lib/pay/sdk/loader";
import type { PayCallbackActions, PayCustomerInfo, PayGlobal } from "@/lib/pay/sdk/types";

export interface PayButtonLine {
  description: string;
  unitPriceAoa: number;
  quantity: number;
  stock: number;
}

export interface PayButtonProps {
  /** From the server, so one build serves sandbox and production. */
  publishableKey: string;
  /** PAY_SDK_URL, a `sdks/v1/` address, from the server. */
  sdkUrl: string;
  /** CSP nonce, set on the SDK's script tag. */
  nonce?: string;
  lang: ShopLang;
  /** The cart lines it pays for: a change renders the SDK button anew. */
  lines: PayButtonLine[];
  /** Read when the shopper clicks; changing it never re-renders the SDK button. */
  customer?: PayCustomerInfo;
  /** The rest of the checkout (email, delivery, promo code), read when the shopper clicks too. */
  details?: CheckoutDetails;
  onOrderCreated?(order: CreatedPayOrder): void;
  /** Every failure the shopper is shown, with the error behind it (logging, analytics). */
  onError?(error: unknown, kind: PayButtonErrorKind): void;
}

/**
 * - `load`: the SDK script could not be loaded (network, timeout, no `window.Pay`);
 * - `config`: the SDK refused the shop's set-up (`Pay(key)`, `generateButton` or `render` threw);
 * - `order`: createOrder failed (endpoint A, or its answer);
 * - `payment`: the SDK reported an error (its `onError`), a blocked popup included.
 */
export type PayButtonErrorKind = "load" | "config" | "order" | "payment";

interface Notice {
  text: string;
  detail?: string;
}

/**
 * The service's payment button (contract 4.3). The SDK is loaded once per page
 * (lib/pay/sdk/loader.ts) and its button rendered into this component's own container. The
 * callbacks only navigate: the order's outcome is decided by the webhook, and the result pages
 * read it from our server.
 */
export function PayButton({
  publishableKey,
  sdkUrl,
  nonce,
  lang,
  lines,
  customer,
  details,
  onOrderCreated,
  onError,
}: PayButtonProps) {
  const strings = dictionary(lang);
  const t = strings.payButton;
  const router = useRouter();
  const containerId = `pay-button-${useId()}`;
  const containerRef = useRef<HTMLDivElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);

  // What the SDK button is rendered for; anything else is read at click time from `latest`.
  // Not the nonce: it is new on every server render and only matters for the first script tag.
  const renderKey = JSON.stringify([publishableKey, sdkUrl, lang, lines, attempt]);
  // The outcome belongs to one renderKey, so a new key reads as "loading" until its render is done.
  const [outcome, setOutcome] = useState<{ renderKey: string; failure: "load" | "config" | null } | null>(null);
  const failure = outcome?.renderKey === renderKey ? outcome.failure : null;
  const state = outcome?.renderKey !== renderKey ? "loading" : failure ? "error" : "ready";

  const latest = useRef({ customer, details, onOrderCreated, onError, router });
  useLayoutEffect(() => {
    latest.current = { customer, details, onOrderCreated, onError, router };
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    // False once this button is replaced or unmounted: its late callbacks then do nothing.
    let active = true;
    let order: CreatedPayOrder | null = null;
    // The SDK hands a createOrder failure back to onError: it is reported once, as "order".
    let orderError: unknown;

    const navigate = (path: string) => {
      if (active) latest.current.router.push(path);
    };
    const reportError = (error: unknown) => {
      if (!active) return;
      console.error("pay button: the SDK reported an error", error);
      if (isPopupBlockedError(error)) setNotice({ text: t.popupBlocked });
      // A createOrder failure already says more than the generic message.
      else setNotice((current) => current ?? { text: t.paymentFailed });
      if (error !== orderError) latest.current.onError?.(error, "payment");
    };
    const failToRender = (error: unknown, kind: "load" | "config") => {
      console.error(`pay button: the SDK could not be ${kind === "load" ? "loaded" : "set up"}`, error);
      // Whatever a failed render left behind goes; the error (and "try again") take its place.
      container.replaceChildren();
      setOutcome({ renderKey, failure: kind });
      latest.current.onError?.(error, kind);
    };
    // Success and pending pages are reached once the popup has closed (contract 4.3).
    const afterPopup = (actions: PayCallbackActions, page: "success" | "pending") => {
      if (!active) return;
      if (!order) return reportError(new Error(`the SDK reported ${page} before an order was created`));
      const path = `/checkout/${page}/${encodeURIComponent(order.externalTransactionId)}`;
      actions.onPopupWindowClosed(() => navigate(path));
    };

    const render = (Pay: PayGlobal) => {
      const sdk = Pay(publishableKey);
      const button = sdk.generateButton({
        createOrder: async () => {
          if (!active) throw new Error("this pay button is no longer on the page");
          setNotice(null);
          const { customer: buyer, details: rest } = latest.current;
          try {
            const created = await requestPayOrder(buyer, rest);
            if (!active) throw new Error("this pay button is no longer on the page");
            if (buyer) sdk.addCustomerInfo?.({ name: buyer.name, phone: buyer.phone });
            // Built by the server from the order as stored: they add up to what is charged, the
            // delivery fee and any discount included (docs/contract-decisions.md).
            sdk.addAllPaymentReferences?.(created.paymentReferences);
            order = created;
            latest.current.onOrderCreated?.(created);
            return created.referenceNumber;
          } catch (error) {
            if (active) {
              orderError = error;
              const code = error instanceof PayOrderError ? error.code : "other";
              setNotice({ text: t.orderFailed, detail: orderErrorMessage(strings, code) });
              latest.current.onError?.(error, "order");
            }
            throw error;
          }
        },
        // Callback data is never trusted: only our own order id picks the page to go to.
        onApprove: (_data, actions) => afterPopup(actions, "success"),
        onPending: (_data, actions) => afterPopup(actions, "pending"),
        onCancel: () =>
          navigate(order ? `/cart?cancelled=${encodeURIComponent(order.externalTransactionId)}` : "/cart"),
        onError: reportError,
        options: payButtonOptions(lang),
      });
      button.render(idSelector(container.id));
      // For the performance budget (e2e/budget.spec.ts): when the button became clickable.
      performance.mark("pay-button-ready");
      setOutcome({ renderKey, failure: null });
    };

    loadPaySdk(sdkUrl, { nonce }).then(
      (Pay) => {
        if (!active) return;
        try {
          render(Pay);
        } catch (error) {
          failToRender(error, "config");
        }
      },
      (error: unknown) => {
        if (active) failToRender(error, "load");
      },
    );

    return () => {
      active = false;
      // The SDK appends its button: emptying here is what lets the next render show only one.
      container.replaceChildren();
    };
    // renderKey stands for every value the effect reads outside `latest`, but the nonce.
  }, [renderKey]);

  const retry = () => {
    setNotice(null);
    setAttempt((previous) => previous + 1);
  };

  const alert = failure ? { text: failure === "load" ? t.loadFailed : t.configFailed } : notice;
  return (
    <div data-testid="pay-button" data-state={state} aria-busy={state === "loading"} className="flex min-h-12 flex-col">
      {state === "loading" && (
        <div className="h-12 animate-pulse rounded-md bg-stone-200">
          <span className="sr-only">{t.loading}</span>
        </div>
      )}
      <div id={containerId} ref={containerRef} data-testid="pay-button-container" />
      {alert && (
        <div
          role="alert"
          data-testid="pay-button-error"
          className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          <p>{alert.text}</p>
          {alert.detail && <p className="mt-1 text-red-700">{alert.detail}</p>}
        </div>
      )}
      {/* Loading again can help with a network failure, not with a configuration the SDK refused. */}
      {failure === "load" && (
        <button
          type="button"
          onClick={retry}
          className="mt-2 self-start rounded-md border border-stone-300 px-3 py-1 text-sm font-medium hover:bg-stone-100"
        >
          {t.retry}
        </button>
      )}
    </div>
  );
}
