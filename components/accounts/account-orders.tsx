import { CopyButton } from "@/components/ui/copy-button";
import { ShopLink } from "@/components/ui/shop-link";
import type { PhoneOrder, PhoneOrdersPage } from "@/lib/accounts/phone-orders";
import type { OrdersError } from "@/lib/accounts/account-flash";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { luandaDayAndTime, luandaFormatter } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import { AccountFlash, AccountSection } from "@/components/accounts/account-section";

/**
 * "As minhas encomendas" on /account: every order of the account's phone, newest first, a page at
 * a time (`?before=`), each with its status, amount and date (Luanda's), its bank reference while
 * it waits for payment, its receipt once paid, a link to its page and "Comprar de novo" (a plain
 * form: POST /api/account/buy-again, then the cart).
 */
export function AccountOrders({
  t,
  lang,
  page,
  olderThan,
  error,
}: {
  t: Dictionary;
  lang: Lang;
  page: PhoneOrdersPage;
  /** The page's `before`, when it is not the first. */
  olderThan: string | undefined;
  error: OrdersError | undefined;
}) {
  const texts = t.account.orders;
  const date = luandaFormatter(lang === "pt" ? "pt-AO" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
  return (
    <AccountSection id="orders" title={texts.title} intro={texts.intro}>
      {error && (
        <AccountFlash kind="error" testId="orders-error">
          {texts.errors[error]}
        </AccountFlash>
      )}
      {page.orders.length === 0 ? (
        <p data-testid="no-account-orders">{texts.none}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {page.orders.map((order) => (
            <OrderItem key={order.externalTransactionId} t={t} order={order} placedOn={date.format(order.createdAt)} />
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-4 text-sm">
        {olderThan && (
          <ShopLink href="/account#orders" className="font-medium text-brand-700 hover:underline">
            {texts.title}
          </ShopLink>
        )}
        {page.nextBefore && (
          <ShopLink
            href={`/account?before=${page.nextBefore}#orders`}
            data-testid="more-orders"
            className="font-medium text-brand-700 hover:underline"
          >
            {texts.more}
          </ShopLink>
        )}
        {/* Orders this browser placed with another phone are there, as for a guest. */}
        <ShopLink href="/orders" className="text-brand-700 hover:underline">
          {t.orders.myOrdersLink}
        </ShopLink>
      </div>
    </AccountSection>
  );
}

function OrderItem({ t, order, placedOn }: { t: Dictionary; order: PhoneOrder; placedOn: string }) {
  const texts = t.account.orders;
  const path = `/orders/${order.externalTransactionId}`;
  const title = t.order.title(order.orderNumber);
  return (
    <li
      data-testid="account-order"
      data-status={order.status}
      className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-medium">
          <ShopLink href={path} className="text-brand-700 hover:underline">
            {title}
          </ShopLink>
        </h3>
        <span className="text-sm font-medium">{t.order.status[order.status]}</span>
      </div>
      <p className="flex flex-wrap gap-x-3 text-sm text-stone-600">
        <span>{texts.placedOn(placedOn)}</span>
        <span>{texts.items(order.items)}</span>
        <span className="font-semibold text-stone-900 tabular-nums">{formatAoa(order.amountAoa)}</span>
      </p>
      {order.reference && <Reference t={t} order={order} reference={order.reference} />}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {order.receipt && (
          <ShopLink
            href={`${path}/receipt`}
            aria-label={texts.receiptNamed(order.orderNumber)}
            className="font-medium text-brand-700 hover:underline"
          >
            {texts.receipt}
          </ShopLink>
        )}
        <form method="post" action="/api/account/buy-again">
          <input type="hidden" name="externalTransactionId" value={order.externalTransactionId} />
          <button
            type="submit"
            aria-label={texts.buyAgainNamed(order.orderNumber)}
            className="rounded-md border border-stone-300 px-3 py-1.5 font-medium hover:bg-stone-100"
          >
            {texts.buyAgain}
          </button>
        </form>
      </div>
    </li>
  );
}

/** A pending order's bank reference, as its pending page shows it (entity, reference, until when), to copy. */
function Reference({
  t,
  order,
  reference,
}: {
  t: Dictionary;
  order: PhoneOrder;
  reference: NonNullable<PhoneOrder["reference"]>;
}) {
  const rows = [
    ...(reference.entityNumber ? [{ label: t.order.entityNumber, value: reference.entityNumber }] : []),
    { label: t.order.paymentReference, value: reference.paymentReference },
  ];
  return (
    <div data-testid="account-order-reference" className="rounded-lg bg-stone-50 p-3 text-sm">
      <p className="mb-2 font-medium">{t.account.orders.referenceTitle}</p>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2">
        {rows.map((row) => (
          <div key={row.label} className="contents">
            <dt className="text-stone-600">{row.label}</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="font-mono font-semibold tabular-nums">{row.value}</span>
              <CopyButton
                value={row.value}
                label={`${t.order.copyNamed(row.label)} (${order.orderNumber})`}
                copiedText={t.order.copied}
                failedText={t.order.copyFailed}
              />
            </dd>
          </div>
        ))}
        <div className="contents">
          <dt className="text-stone-600">{t.order.slip.validUntil}</dt>
          <dd>{t.order.slip.luandaTime(luandaDayAndTime(reference.validUntil, t.locale))}</dd>
        </div>
      </dl>
    </div>
  );
}
