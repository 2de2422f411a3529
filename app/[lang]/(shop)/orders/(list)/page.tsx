import type { Metadata } from "next";
import { cookies } from "next/headers";
import { ShopLink } from "@/components/ui/shop-link";
import { shortOrderId } from "@/lib/orders/order-number";
import { readShopperId, SHOPPER_COOKIE } from "@/lib/cart/shopper-cookies";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLang } from "@/lib/http/request-lang";
import { currentShopper } from "@/lib/http/shopper-session";
import { luandaFormatter } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import { shopperOrders } from "@/lib/orders/lookup";

// "As minhas encomendas": the orders this browser placed (its shopper cookie), newest first; every
// order of a phone, placed anywhere, is on the account of that phone, which the sign-in opens.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.orders.title, robots: { index: false } };
}

export default async function MyOrdersPage() {
  const accountsOn = getEnv().accounts !== undefined;
  const [{ lang, t }, cookieStore, shopper] = await Promise.all([
    getLang(),
    cookies(),
    accountsOn ? currentShopper() : null,
  ]);
  const orders = await shopperOrders(db(), readShopperId(cookieStore.get(SHOPPER_COOKIE)?.value));
  const date = luandaFormatter(lang === "pt" ? "pt-AO" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t.orders.title}</h1>
        <p className="mt-1 text-stone-600">{t.orders.intro}</p>
      </div>
      {orders.length === 0 ? (
        <p data-testid="no-orders">{t.orders.none}</p>
      ) : (
        <table className="w-full border-collapse text-left text-sm">
          <thead>
            <tr className="border-b border-stone-300">
              <th scope="col" className="py-2 pr-3 font-medium">
                {t.orders.order}
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                {t.orders.date}
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                {t.orders.status}
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                {t.orders.items}
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                {t.orders.total}
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.externalTransactionId} data-testid="my-order" className="border-b border-stone-200">
                <td className="py-2 pr-3">
                  <ShopLink
                    href={`/orders/${order.externalTransactionId}`}
                    className="font-mono text-brand-700 hover:underline"
                  >
                    {shortOrderId(order.externalTransactionId)}
                  </ShopLink>
                </td>
                <td className="py-2 pr-3">{date.format(order.createdAt)}</td>
                <td className="py-2 pr-3">{t.order.status[order.status]}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{order.items}</td>
                <td className="py-2 text-right tabular-nums">{formatAoa(order.amountAoa)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {accountsOn && (
        <p data-testid="orders-sign-in">
          {shopper ? (
            <ShopLink href="/account" className="text-brand-700 hover:underline">
              {t.orders.accountLink}
            </ShopLink>
          ) : (
            <>
              {t.orders.otherDevice}{" "}
              <ShopLink href="/account/sign-in?next=/account" className="text-brand-700 hover:underline">
                {t.orders.signInForAll}
              </ShopLink>
            </>
          )}
        </p>
      )}
    </div>
  );
}
