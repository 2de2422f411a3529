import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AccountOrders } from "@/components/accounts/account-orders";
import { AccountProfile } from "@/components/accounts/account-profile";
import { SavedAddresses } from "@/components/accounts/saved-addresses";
import { SessionActions } from "@/components/accounts/session-actions";
import {
  ADDRESS_OUTCOMES,
  ADDRESSES_FLASH,
  ORDERS_FLASH,
  ORDERS_OUTCOMES,
  PROFILE_FLASH,
  PROFILE_OUTCOMES,
} from "@/lib/accounts/account-flash";
import { listAddresses } from "@/lib/accounts/addresses";
import { ordersOfPhone } from "@/lib/accounts/phone-orders";
import { db } from "@/lib/db/client";
import { firstOf, readFlash, type PageQuery } from "@/lib/flash";
import { ACCOUNT_PAGE, signInFor } from "@/lib/http/account-requests";
import { getLang } from "@/lib/http/request-lang";
import { currentShopper } from "@/lib/http/shopper-session";
import { readablePhone } from "@/lib/phone";

// "A minha conta": the signed-in shopper's orders (every order of the account's phone, a page at
// a time), details, saved addresses, and the end of the session or of the account. Rendered per
// request for the shopper it reads; signed out, the sign-in, which comes back here.
export const dynamic = "force-dynamic";

/** Orders a page of the list holds: a phone's screen or two. */
const ORDERS_PER_PAGE = 10;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.account.page.title, robots: { index: false } };
}

export default async function AccountPage({ searchParams }: { searchParams: Promise<PageQuery> }) {
  const [{ lang, t }, query, shopper] = await Promise.all([getLang(), searchParams, currentShopper()]);
  if (!shopper) redirect(signInFor(ACCOUNT_PAGE));
  const before = firstOf(query.before);
  const [orders, addresses] = await Promise.all([
    ordersOfPhone(db(), shopper.phoneKey, { take: ORDERS_PER_PAGE, before }),
    listAddresses(db(), shopper.id),
  ]);
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t.account.page.title}</h1>
        <p data-testid="account-phone" className="mt-1 text-stone-600">
          {t.account.page.signedInAs(readablePhone(shopper.phoneKey))}
        </p>
      </div>
      <AccountOrders
        t={t}
        lang={lang}
        page={orders}
        olderThan={before}
        error={readFlash(query, ORDERS_OUTCOMES, ORDERS_FLASH).error}
      />
      <SavedAddresses t={t} addresses={addresses} flash={readFlash(query, ADDRESS_OUTCOMES, ADDRESSES_FLASH)} />
      <AccountProfile t={t} profile={shopper} flash={readFlash(query, PROFILE_OUTCOMES, PROFILE_FLASH)} />
      <SessionActions texts={{ session: t.account.session, deletion: t.account.deletion }} />
    </div>
  );
}
