"use client";

import { ShopLink } from "@/components/ui/shop-link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { OrderLines, type OrderLineView } from "@/components/orders/order-lines";
import { useHeaderCartCount } from "@/components/cart/use-header-cart-count";
import { useOrderStatus, type OrderStatusSnapshot } from "@/components/orders/use-order-status";
import { dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { formatAoa } from "@/lib/money";
import { shortOrderId } from "@/lib/orders/order-number";
import { luandaDayAndTime } from "@/lib/luanda-time";
import { referenceSlipText, type ReferenceSlip } from "@/lib/orders/reference-slip";
import { REFERENCE_PAYMENT_LIFE_SPAN_MINUTES } from "@/lib/pay/sdk/config";
import { Spinner } from "@/components/ui/spinner";
import { ReferenceActions } from "@/components/orders/reference-actions";

/**
 * An order's status on the result and order pages. The first paint is what the server read
 * from the database; then endpoint C is polled until the order is final, so "confirmed"
 * appears only once the webhook has made the order CON.
 *
 * - `success`: after onApprove; PEN means "waiting for confirmation".
 * - `pending`: after onPending; PEN shows the payment reference and entity to pay with, to copy,
 *   share or save.
 * - `order`: the order page; lines always shown.
 *
 * A paid order links its receipt (app/[lang]/(shop)/orders/[externalTransactionId]/receipt).
 *
 * An order that turns CAN while the page is open goes to the cart, reopened for the shopper,
 * which says the payment was cancelled (app/cart/page.tsx, `?cancelled=`).
 */
export function OrderStatus({
  lang,
  page,
  externalTransactionId,
  initial,
  amountAoa,
  lines,
  cartCleared,
  paidAfterCancel = false,
  referenceValidUntil,
}: {
  lang: Lang;
  page: "success" | "pending" | "order";
  externalTransactionId: string;
  initial: OrderStatusSnapshot;
  amountAoa: number;
  lines: OrderLineView[];
  /** The server's word at its latest render: the order is CON and the clear-cart job has run. */
  cartCleared: boolean;
  /** The server's word: cancelled, and yet paid after the cancellation (lib/orders/summary.ts). */
  paidAfterCancel?: boolean;
  /** Until when a reference issued for this order can be paid, ISO (lib/orders/reference-slip.ts); the snapshot's `payBy` comes first. */
  referenceValidUntil?: string;
}) {
  const t = dictionary(lang);
  const router = useRouter();
  const { snapshot, gaveUp, checking, checkAgain } = useOrderStatus(externalTransactionId, initial);
  const { status } = snapshot;

  // Becoming final changes the cart (emptied on CON, reopened on CAN) in a job that runs just
  // after the webhook's reply. CAN: the cart page shows the cancellation and follows the job;
  // CON: the header's count follows the server until the job has emptied the cart.
  useEffect(() => {
    if (status === initial.status || status !== "CAN") return;
    router.replace(`/cart?cancelled=${encodeURIComponent(externalTransactionId)}`);
  }, [status, initial.status, router, externalTransactionId]);
  useHeaderCartCount({ status, initialStatus: initial.status, page, cartCleared });

  return (
    <section data-testid="order-status" data-status={status} className="flex flex-col gap-6">
      <div aria-live="polite" className="flex flex-col gap-2">
        {status === "PEN" && page !== "pending" && (
          <>
            <p className="flex items-center gap-3 text-lg font-medium">
              <Spinner />
              {t.order.waiting}
            </p>
            <p className="text-stone-600">{t.order.waitingBody}</p>
          </>
        )}
        {status === "PEN" && page === "pending" && <p className="text-stone-700">{t.order.pendingBody}</p>}
        {status === "CON" && (
          <>
            <p className="text-lg font-semibold text-emerald-700">{t.order.confirmed}</p>
            <p className="text-stone-600">{t.order.confirmedBody}</p>
          </>
        )}
        {status === "CAN" && !paidAfterCancel && (
          <>
            <p className="text-lg font-semibold text-red-700">{t.order.cancelled}</p>
            <p className="text-stone-600">{t.order.cancelledBody}</p>
          </>
        )}
        {status === "CAN" && paidAfterCancel && (
          <>
            <p className="text-lg font-semibold text-amber-800">{t.order.paidAfterCancel}</p>
            <p className="text-stone-600">{t.order.paidAfterCancelBody}</p>
          </>
        )}
      </div>

      {status === "PEN" && (page === "pending" || snapshot.paymentReference) && (
        <PaymentReference
          t={t}
          snapshot={snapshot}
          amountAoa={amountAoa}
          orderNumber={shortOrderId(externalTransactionId)}
          validUntil={snapshot.payBy ?? referenceValidUntil}
        />
      )}

      {status === "PEN" && gaveUp && (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-stone-700">{t.order.stillWaiting}</p>
          <button
            type="button"
            onClick={checkAgain}
            disabled={checking}
            className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-60"
          >
            {checking ? t.order.checking : t.order.checkAgain}
          </button>
        </div>
      )}

      {(status === "CON" || page === "order") && <OrderLines t={t} lines={lines} totalAoa={amountAoa} />}

      <div className="flex flex-wrap gap-4 text-sm">
        {status === "CAN" && (
          <ShopLink href="/cart" className="font-medium text-brand-700 hover:underline">
            {t.order.backToCart}
          </ShopLink>
        )}
        {/* Paid: the receipt, which says "being prepared" until the invoice job has numbered it. */}
        {status === "CON" && (
          <ShopLink
            href={`/orders/${externalTransactionId}/receipt`}
            data-testid="receipt-link"
            className="font-medium text-brand-700 hover:underline"
          >
            {t.receipt.open}
          </ShopLink>
        )}
        {page !== "order" && (
          <ShopLink href={`/orders/${externalTransactionId}`} className="text-brand-700 hover:underline">
            {t.order.viewOrder}
          </ShopLink>
        )}
        {status !== "CAN" && (
          <ShopLink href="/" className="text-brand-700 hover:underline">
            {t.order.continueShopping}
          </ShopLink>
        )}
      </div>
    </section>
  );
}

function PaymentReference({
  t,
  snapshot,
  amountAoa,
  orderNumber,
  validUntil,
}: {
  t: ReturnType<typeof dictionary>;
  snapshot: OrderStatusSnapshot;
  amountAoa: number;
  orderNumber: string;
  validUntil: string | undefined;
}) {
  const { paymentReference, entityNumber } = snapshot;
  if (!paymentReference && !entityNumber) return <p className="text-stone-600">{t.order.referenceUnknown}</p>;
  const slip: ReferenceSlip = {
    orderNumber,
    amountAoa,
    ...(entityNumber ? { entityNumber } : {}),
    ...(paymentReference ? { paymentReference } : {}),
    ...(validUntil ? { validUntil } : {}),
  };
  const until = validUntil ? t.order.slip.luandaTime(luandaDayAndTime(validUntil, t.locale)) : null;
  return (
    <div className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4">
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-3">
        {entityNumber && (
          <CopyableValue testId="entity-number" label={t.order.entityNumber} value={entityNumber} t={t} mono />
        )}
        {paymentReference && (
          <CopyableValue
            testId="payment-reference"
            label={t.order.paymentReference}
            value={paymentReference}
            t={t}
            mono
          />
        )}
        {/* Home banking asks for the amount as a number: the copy is its digits. */}
        <CopyableValue
          testId="reference-amount"
          label={t.order.amount}
          value={formatAoa(amountAoa)}
          copyValue={String(amountAoa)}
          t={t}
        />
        {until && (
          <CopyableValue
            testId="reference-valid-until"
            label={t.order.slip.validUntil}
            copyLabel={t.order.slip.copyValidUntil}
            value={until}
            t={t}
          />
        )}
      </dl>
      {/* A reference past the shop's cap on day-long holds keeps the units only for the ordinary hold. */}
      <p data-testid="reference-life-span" className="text-sm text-stone-600">
        {snapshot.payBy
          ? t.order.payBy(luandaDayAndTime(snapshot.payBy, t.locale))
          : t.order.lifeSpan(REFERENCE_PAYMENT_LIFE_SPAN_MINUTES)}
      </p>
      <ReferenceActions t={t} text={referenceSlipText(t, slip)} orderNumber={orderNumber} />
    </div>
  );
}

/** One line of the reference payment's details, large, with a button that copies it. */
function CopyableValue({
  testId,
  label,
  value,
  copyValue = value,
  copyLabel,
  mono = false,
  t,
}: {
  testId: string;
  label: string;
  value: string;
  copyValue?: string;
  /** The copy button's name, when "Copiar <label>" does not read well. */
  copyLabel?: string;
  mono?: boolean;
  t: ReturnType<typeof dictionary>;
}) {
  return (
    <>
      <dt className="text-stone-500">{label}</dt>
      <dd className="flex flex-wrap items-center gap-3">
        <span data-testid={testId} className={`${mono ? "font-mono " : ""}text-xl font-semibold tabular-nums`}>
          {value}
        </span>
        <CopyButton
          value={copyValue}
          label={copyLabel ?? t.order.copyNamed(label)}
          copiedText={t.order.copied}
          failedText={t.order.copyFailed}
        />
      </dd>
    </>
  );
}
