import { ShopLink } from "@/components/ui/shop-link";
import type { AddressDone, AddressError } from "@/lib/accounts/account-flash";
import { MAX_SAVED_ADDRESSES } from "@/lib/accounts/address-rules";
import type { SavedAddress } from "@/lib/accounts/addresses";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { AccountFlash, AccountSection } from "@/components/accounts/account-section";

/**
 * "Moradas de entrega" on /account: the saved addresses, the default first and marked, each with
 * "Alterar" (its page), "Tornar principal" and "Apagar" (plain forms posting to
 * /api/account/addresses/<id>/…), and the way to add one while there is room.
 */
export function SavedAddresses({
  t,
  addresses,
  flash,
}: {
  t: Dictionary;
  addresses: SavedAddress[];
  flash: { done?: AddressDone; error?: AddressError };
}) {
  const texts = t.account.addresses;
  const small = "rounded-md border border-stone-300 px-3 py-1.5 text-sm font-medium hover:bg-stone-100";
  return (
    <AccountSection id="addresses" title={texts.title}>
      {flash.done && (
        <AccountFlash kind="done" testId="address-done">
          {texts.done[flash.done]}
        </AccountFlash>
      )}
      {flash.error && (
        <AccountFlash kind="error" testId="address-error">
          {texts.errors[flash.error]}
        </AccountFlash>
      )}
      {addresses.length === 0 ? (
        <p data-testid="no-addresses">{texts.none}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {addresses.map((address) => (
            <li
              key={address.id}
              data-testid="saved-address"
              data-default={address.isDefault ? "true" : undefined}
              className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <address className="flex flex-col not-italic">
                  <span className="font-medium">{address.street}</span>
                  <span>
                    {address.neighbourhood}, {address.municipality}, {address.province}
                  </span>
                  <span className="text-sm text-stone-600">{address.reference}</span>
                </address>
                {address.isDefault && (
                  <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-sm font-medium text-emerald-800">
                    {texts.isDefault}
                  </span>
                )}
              </div>
              <div className="flex flex-wrap gap-2">
                <ShopLink
                  href={`/account/addresses/${address.id}`}
                  aria-label={texts.editNamed(address.street)}
                  className={small}
                >
                  {texts.edit}
                </ShopLink>
                {!address.isDefault && (
                  <form method="post" action={`/api/account/addresses/${address.id}/default`}>
                    <button type="submit" aria-label={texts.makeDefaultNamed(address.street)} className={small}>
                      {texts.makeDefault}
                    </button>
                  </form>
                )}
                <form method="post" action={`/api/account/addresses/${address.id}/delete`}>
                  <button
                    type="submit"
                    aria-label={texts.deleteNamed(address.street)}
                    className="rounded-md px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                  >
                    {texts.delete}
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}
      {addresses.length < MAX_SAVED_ADDRESSES ? (
        <ShopLink
          href="/account/addresses/new"
          className="self-start rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600"
        >
          {texts.add}
        </ShopLink>
      ) : (
        <p className="text-sm text-stone-600">{texts.max(MAX_SAVED_ADDRESSES)}</p>
      )}
    </AccountSection>
  );
}
