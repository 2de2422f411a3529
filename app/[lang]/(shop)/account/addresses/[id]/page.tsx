import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { AddressPage } from "@/components/accounts/address-page";
import { ADDRESS_OUTCOMES } from "@/lib/accounts/account-flash";
import { listAddresses } from "@/lib/accounts/addresses";
import { municipalityChoices } from "@/lib/checkout/address-fields";
import { db } from "@/lib/db/client";
import { deliveryOptions } from "@/lib/delivery/zones";
import { readFlash, type PageQuery } from "@/lib/flash";
import { addressPage, signInFor } from "@/lib/http/account-requests";
import { getLang } from "@/lib/http/request-lang";
import { currentShopper } from "@/lib/http/shopper-session";

// One of the signed-in shopper's saved addresses, changed (POST /api/account/addresses/<id>);
// an address that is not theirs is not found, like one that does not exist.
export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<PageQuery>;
}

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.account.addresses.editTitle, robots: { index: false } };
}

export default async function EditAddressPage({ params, searchParams }: Props) {
  const [{ t }, { id }, query, shopper] = await Promise.all([getLang(), params, searchParams, currentShopper()]);
  if (!shopper) redirect(signInFor(addressPage(id)));
  const [addresses, { zones }] = await Promise.all([listAddresses(db(), shopper.id), deliveryOptions(db())]);
  const address = addresses.find((candidate) => candidate.id === id);
  if (!address) notFound();
  return (
    <AddressPage
      t={t}
      title={t.account.addresses.editTitle}
      action={`/api/account/addresses/${address.id}`}
      initial={{
        province: address.province,
        municipality: address.municipality,
        neighbourhood: address.neighbourhood,
        street: address.street,
        reference: address.reference,
      }}
      isDefault={address.isDefault}
      municipalities={municipalityChoices(zones)}
      flash={readFlash(query, ADDRESS_OUTCOMES)}
    />
  );
}
