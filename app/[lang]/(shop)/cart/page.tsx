import type { Metadata } from "next";
import { cookies } from "next/headers";
import { ShopLink } from "@/components/ui/shop-link";
import { CartPromo } from "@/components/cart/cart-promo";
import type { ReactNode } from "react";
import { removeLineAction, setLineQuantityAction } from "@/app/actions/cart";
import { BoughtAgainNotice } from "@/components/cart/bought-again-notice";
import { CartNotice } from "@/components/cart/cart-notice";
import { CartReopenWatcher } from "@/components/cart/cart-reopen-watcher";
import { ProductImage } from "@/components/catalog/product-image";
import { boughtAgainShown, readBoughtAgainNotice } from "@/lib/accounts/bought-again-notice";
import { orderLineNames } from "@/lib/accounts/buy-again";
import { getCart, type CartLine, type CartView } from "@/lib/cart/cart";
import { CART_COOKIE, readCartId } from "@/lib/cart/shopper-cookies";
import type { Lang } from "@/lib/i18n/languages";
import { db } from "@/lib/db/client";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { getLang } from "@/lib/http/request-lang";
import { formatAoa } from "@/lib/money";
import { EXTERNAL_TRANSACTION_ID } from "@/lib/orders/order-number";
import { getOrderSummary } from "@/lib/orders/summary";

// The cart actions of this page may end expired stock holds, asking the service once (1.5 s at most).
export const maxDuration = 30;

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.cart.title };
}

type Query = Record<string, string | string[] | undefined>;

export default async function CartPage({ searchParams }: { searchParams: Promise<Query> }) {
  const [{ lang, t }, query, cookieStore] = await Promise.all([getLang(), searchParams, cookies()]);
  const cart = await getCart(db(), readCartId(cookieStore.get(CART_COOKIE)?.value));
  // `?cancelled=<id>` is where the PayButton goes after onCancel; only an order we have counts.
  const cancelledId =
    typeof query.cancelled === "string" && EXTERNAL_TRANSACTION_ID.test(query.cancelled) ? query.cancelled : undefined;
  const cancelledOrder = cancelledId ? await getOrderSummary(db(), cancelledId) : null;
  // "Comprar de novo" came here (POST /api/account/buy-again): its notice names only the order's own lines.
  const boughtAgain = readBoughtAgainNotice(query);
  const boughtAgainNotice = boughtAgain && boughtAgainShown(boughtAgain, await orderLineNames(db(), boughtAgain.order));
  const holdsThisCart = cart?.status === "LOCKED" && cancelledOrder?.cartId === cart.id;
  // The SDK also calls onCancel when the shopper just closes the popup: the order is then still
  // PEN and payable, so the shopper is offered to go on paying rather than told it was cancelled.
  const notCompleted = holdsThisCart && cancelledOrder?.status === "PEN";
  const waitingForReopen = holdsThisCart && cancelledOrder?.status === "CAN";
  // Only a CAN order was cancelled: one still PEN that this cart does not hold is still being paid.
  const inProgress = !holdsThisCart && cancelledOrder?.status === "PEN";
  // A PEN order's cancellation may still be on its way: the page follows it, silently.
  const followCancellation = cancelledOrder && (
    <CartReopenWatcher
      lang={lang}
      externalTransactionId={cancelledOrder.externalTransactionId}
      initialStatus={cancelledOrder.status}
      quiet
    />
  );

  return (
    <section aria-labelledby="cart-title" className="flex flex-col gap-6">
      <h1 id="cart-title" className="text-2xl font-semibold tracking-tight">
        {t.cart.title}
      </h1>
      <CartNotice lang={lang} />
      {boughtAgainNotice && <BoughtAgainNotice t={t} notice={boughtAgainNotice} />}

      {notCompleted ? (
        <PaymentNotice
          tone="info"
          testId="payment-not-completed"
          title={t.cart.notCompletedTitle}
          body={t.cart.notCompletedBody}
          link={{ href: "/checkout", text: t.cart.continueCheckout }}
        >
          {followCancellation}
        </PaymentNotice>
      ) : cancelledOrder?.status === "CON" ? (
        <PaymentNotice
          tone="success"
          body={t.cart.paidAfterAll}
          link={{ href: `/orders/${cancelledOrder.externalTransactionId}`, text: t.cart.viewOrder }}
        />
      ) : cancelledOrder?.status === "CAN" ? (
        <PaymentNotice
          tone="warning"
          testId="payment-cancelled"
          title={t.cart.cancelledTitle}
          body={t.cart.cancelledBody}
        >
          {waitingForReopen && (
            <CartReopenWatcher
              lang={lang}
              externalTransactionId={cancelledOrder.externalTransactionId}
              initialStatus={cancelledOrder.status}
            />
          )}
        </PaymentNotice>
      ) : (
        inProgress && (
          <PaymentNotice
            tone="info"
            testId="payment-in-progress"
            title={t.cart.lockedTitle}
            body={t.cart.orderInProgressBody}
            link={{ href: `/orders/${cancelledOrder.externalTransactionId}`, text: t.cart.viewOrder }}
          >
            {followCancellation}
          </PaymentNotice>
        )
      )}

      {cart?.status === "LOCKED" && !waitingForReopen && !notCompleted && (
        <PaymentNotice
          tone="info"
          title={t.cart.lockedTitle}
          body={t.cart.lockedBody}
          link={{ href: "/checkout", text: t.cart.continueCheckout }}
          announce={false}
        />
      )}

      {!cart || cart.lines.length === 0 ? (
        <div className="flex flex-col items-start gap-3">
          <p className="text-stone-600">{t.cart.empty}</p>
          <ShopLink href="/" className="font-medium text-brand-700 hover:underline">
            {t.cart.continueShopping}
          </ShopLink>
        </div>
      ) : (
        <CartContents lang={lang} t={t} cart={cart} />
      )}
    </section>
  );
}

const NOTICE_TONES = {
  info: "border-sky-200 bg-sky-50 text-sky-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
};

/** Where a payment made from this cart stands; `announce` reads it out when it appears. */
function PaymentNotice({
  tone,
  testId,
  title,
  body,
  link,
  announce = true,
  children,
}: {
  tone: keyof typeof NOTICE_TONES;
  testId?: string;
  title?: string;
  body: string;
  link?: { href: string; text: string };
  announce?: boolean;
  children?: ReactNode;
}) {
  return (
    <div data-testid={testId} className={`flex flex-col gap-2 rounded-lg border px-4 py-3 ${NOTICE_TONES[tone]}`}>
      <p role={announce ? "status" : undefined}>
        {title && <strong>{title}.</strong>} {body}
      </p>
      {link && (
        <ShopLink href={link.href} className="font-medium underline">
          {link.text}
        </ShopLink>
      )}
      {children}
    </div>
  );
}

function CartContents({ lang, t, cart }: { lang: Lang; t: Dictionary; cart: CartView }) {
  const editable = cart.status === "OPEN";
  return (
    <>
      <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
        {cart.lines.map((line) => (
          <CartLineItem key={line.variantId} t={t} line={line} editable={editable} maxUnits={cart.limits.perLine} />
        ))}
      </ul>
      <div className="flex flex-col items-end gap-3">
        <p className="text-lg">
          {t.cart.total}:{" "}
          <strong data-testid="cart-total" className="tabular-nums">
            {formatAoa(cart.totalAoa)}
          </strong>
        </p>
        {editable &&
          (cart.exceedsStock ? (
            <p className="text-sm text-red-700">{t.cart.fixStockFirst}</p>
          ) : cart.exceedsLimits ? (
            <p className="text-sm text-red-700">{t.cart.fixLimitsFirst(cart.limits.perOrder)}</p>
          ) : (
            <CartPromo lang={lang} totalAoa={cart.totalAoa} checkoutLabel={t.cart.checkout} />
          ))}
      </div>
    </>
  );
}

function CartLineItem({
  t,
  line,
  editable,
  maxUnits,
}: {
  t: Dictionary;
  line: CartLine;
  editable: boolean;
  /** MAX_UNITS_PER_LINE. */
  maxUnits: number;
}) {
  const quantityId = `quantity-${line.variantId}`;
  return (
    <li data-testid="cart-line" className="flex flex-wrap items-center gap-4 p-4">
      <ProductImage
        src={line.image}
        alt=""
        name={line.productName}
        width={80}
        height={60}
        size="small"
        className="h-[60px] w-[80px] shrink-0 rounded-md bg-stone-100 object-cover"
      />
      <div className="flex min-w-40 flex-1 flex-col gap-1">
        <ShopLink href={`/products/${line.slug}`} className="font-medium hover:underline">
          {line.name}
        </ShopLink>
        <span className="text-sm text-stone-600">
          {t.cart.unitPrice}: <span className="tabular-nums">{formatAoa(line.unitPriceAoa)}</span>
        </span>
        {editable && line.quantity > line.stock && (
          <span className="text-sm text-red-700">{t.cart.onlyInStock(line.stock)}</span>
        )}
        {editable && line.quantity <= line.stock && line.quantity > maxUnits && (
          <span className="text-sm text-red-700">{t.cart.overLineLimit(maxUnits)}</span>
        )}
      </div>
      {editable ? (
        <div className="flex flex-wrap items-end gap-2">
          <form action={setLineQuantityAction} className="flex items-end gap-2">
            <input type="hidden" name="variantId" value={line.variantId} />
            <label htmlFor={quantityId} className="sr-only">
              {t.cart.quantityOf(line.name)}
            </label>
            <input
              id={quantityId}
              name="quantity"
              type="number"
              inputMode="numeric"
              min={0}
              max={maxUnits}
              step={1}
              defaultValue={line.quantity}
              required
              className="w-20 rounded-md border border-stone-300 px-2 py-1.5"
            />
            <button type="submit" className="rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-100">
              {t.cart.update}
            </button>
          </form>
          <form action={removeLineAction}>
            <input type="hidden" name="variantId" value={line.variantId} />
            <button
              type="submit"
              aria-label={t.cart.removeNamed(line.name)}
              className="rounded-md px-3 py-1.5 text-sm text-red-700 hover:bg-red-50"
            >
              {t.cart.remove}
            </button>
          </form>
        </div>
      ) : (
        <span className="text-stone-700">
          {t.cart.quantity}: {line.quantity}
        </span>
      )}
      <span className="ml-auto w-28 text-right font-semibold tabular-nums">{formatAoa(line.lineTotalAoa)}</span>
    </li>
  );
}
