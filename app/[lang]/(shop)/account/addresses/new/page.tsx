import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AddressPage } from "@/components/accounts/address-page";
import { ADDRESS_OUTCOMES } from "@/lib/accounts/account-flash";
import { DEFAULT_PROVINCE, municipalityChoices } from "@/lib/checkout/address-fields";
import { db } from "@/lib/db/client";
import { deliveryOptions } from "@/lib/delivery/zones";
import { readFlash, type PageQuery } from "@/lib/flash";
import { signInFor } from "@/lib/http/account-requests";
import { getLang } from "@/lib/http/request-lang";
import { currentShopper } from "@/lib/http/shopper-session";

// A new saved address for the signed-in shopper (POST /api/account/addresses), with the
// checkout's fields and municipalities; back here with the refusal when one is refused.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.account.addresses.newTitle, robots: { index: false } };
}

export default async function NewAddressPage({ searchParams }: { searchParams: Promise<PageQuery> }) {
  const [{ t }, query, shopper] = await Promise.all([getLang(), searchParams, currentShopper()]);
  if (!shopper) redirect(signInFor("/account/addresses/new"));
  const { zones } = await deliveryOptions(db());
  return (
    <AddressPage
      t={t}
      title={t.account.addresses.newTitle}
      action="/api/account/addresses"
      initial={{ province: DEFAULT_PROVINCE, municipality: "", neighbourhood: "", street: "", reference: "" }}
      isDefault={false}
      municipalities={municipalityChoices(zones)}
      flash={readFlash(query, ADDRESS_OUTCOMES)}
    />
  );
}
