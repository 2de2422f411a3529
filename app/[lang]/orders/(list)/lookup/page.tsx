import type { Metadata } from "next";
import { ShopLink } from "@/components/ui/shop-link";
import { getLang } from "@/lib/http/request-lang";

// Finding an order again from another device: its number and the phone given at checkout, posted
// to POST /api/orders/lookup, which sends the browser on to the order's page or back here with
// what went wrong (`?error=`; the number comes back, the phone never goes into an address).
export const dynamic = "force-dynamic";

const ERRORS = ["not_found", "invalid_input", "rate_limited", "unavailable"] as const;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.orders.lookupTitle, robots: { index: false } };
}

type Query = Record<string, string | string[] | undefined>;

export default async function OrderLookupPage({ searchParams }: { searchParams: Promise<Query> }) {
  const [{ t }, query] = await Promise.all([getLang(), searchParams]);
  const error = ERRORS.find((code) => code === query.error);
  const orderNumber = typeof query.orderNumber === "string" ? query.orderNumber.slice(0, 60) : "";
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t.orders.lookupTitle}</h1>
        <p className="mt-1 text-stone-600">{t.orders.lookupIntro}</p>
      </div>
      {error && (
        <p
          role="alert"
          data-testid="lookup-error"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800"
        >
          {t.orders.errors[error]}
        </p>
      )}
      <form action="/api/orders/lookup" method="post" className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="order-number" className="font-medium">
            {t.orders.orderNumber}
          </label>
          <input
            id="order-number"
            name="orderNumber"
            required
            maxLength={60}
            autoComplete="off"
            defaultValue={orderNumber}
            aria-describedby="order-number-hint"
            className="rounded-md border border-stone-300 px-3 py-2 font-mono uppercase"
          />
          <span id="order-number-hint" className="text-sm text-stone-600">
            {t.orders.orderNumberHint}
          </span>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="order-phone" className="font-medium">
            {t.orders.phone}
          </label>
          <input
            id="order-phone"
            name="phone"
            type="tel"
            required
            maxLength={30}
            autoComplete="tel"
            aria-describedby="order-phone-hint"
            className="rounded-md border border-stone-300 px-3 py-2"
          />
          <span id="order-phone-hint" className="text-sm text-stone-600">
            {t.orders.phoneHint}
          </span>
        </div>
        <button
          type="submit"
          className="self-start rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600"
        >
          {t.orders.submit}
        </button>
      </form>
      <p>
        <ShopLink href="/orders" className="text-brand-700 hover:underline">
          {t.orders.myOrdersLink}
        </ShopLink>
      </p>
    </div>
  );
}
