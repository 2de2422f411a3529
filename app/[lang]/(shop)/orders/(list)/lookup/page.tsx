import type { Metadata } from "next";
import { ShopLink } from "@/components/ui/shop-link";
import { getEnv } from "@/lib/env";
import { getLang } from "@/lib/http/request-lang";
import { currentShopper } from "@/lib/http/shopper-session";

// Finding an order from another device: by signing in with the phone it was placed with (the
// account lists every order of that phone), never by the order's number and a phone, which a
// shared bank-reference slip or WhatsApp message hands to anyone. An old form posting here is
// sent back to this page (POST /api/orders/lookup).
export const dynamic = "force-dynamic";

/** Where the sign-in sends the shopper once signed in: the account, with its orders. */
const SIGN_IN_PATH = "/account/sign-in?next=/account";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.orders.lookupTitle, robots: { index: false } };
}

export default async function OrderLookupPage() {
  const accountsOn = getEnv().accounts !== undefined;
  const [{ t }, shopper] = await Promise.all([getLang(), accountsOn ? currentShopper() : null]);
  const action = "self-start rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600";
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6">
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t.orders.lookupTitle}</h1>
        {accountsOn ? (
          <>
            <p className="text-stone-700">{t.orders.lookupIntro}</p>
            <p className="text-sm text-stone-600">{t.orders.lookupWhy}</p>
          </>
        ) : (
          <p data-testid="accounts-off" className="text-stone-700">
            {t.orders.accountsOff}
          </p>
        )}
      </div>
      {accountsOn &&
        (shopper ? (
          <div className="flex flex-col gap-3">
            <p>{t.orders.signedIn}</p>
            <ShopLink href="/account" className={action}>
              {t.orders.accountLink}
            </ShopLink>
          </div>
        ) : (
          <ShopLink href={SIGN_IN_PATH} data-testid="lookup-sign-in" className={action}>
            {t.orders.signIn}
          </ShopLink>
        ))}
      <p>
        <ShopLink href="/orders" className="text-brand-700 hover:underline">
          {t.orders.myOrdersLink}
        </ShopLink>
      </p>
    </div>
  );
}
