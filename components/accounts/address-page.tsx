import { AddressForm, type AddressFormTexts } from "@/components/accounts/address-form";
import { ShopLink } from "@/components/ui/shop-link";
import type { AddressError } from "@/lib/accounts/account-flash";
import { ADDRESS_FIELDS, type AddressField } from "@/lib/checkout/address-fields";
import { ADDRESS_LIMITS } from "@/lib/checkout/checkout-rules";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { AccountFlash } from "@/components/accounts/account-section";

/**
 * The page of one saved address, new or changed (app/[lang]/(shop)/account/addresses/…): its title, the
 * server's refusal when the form came back with one, the form (./address-form.tsx) and the way
 * back to the account.
 */
export function AddressPage({
  t,
  title,
  action,
  initial,
  isDefault,
  municipalities,
  flash,
}: {
  t: Dictionary;
  title: string;
  action: string;
  initial: Record<AddressField, string>;
  isDefault: boolean;
  municipalities: string[] | null;
  flash: { error?: AddressError; field?: AddressField };
}) {
  const texts = t.account.addresses;
  const formTexts: AddressFormTexts = {
    labels: Object.fromEntries(ADDRESS_FIELDS.map((key) => [key, t.checkout[key]])) as Record<AddressField, string>,
    invalid: Object.fromEntries(
      ADDRESS_FIELDS.map((key) => [key, t.checkout.addressInvalid(ADDRESS_LIMITS[key])]),
    ) as Record<AddressField, string>,
    referenceHint: t.checkout.referenceHint,
    municipalityHint: texts.otherMunicipality,
    chooseMunicipality: t.checkout.chooseMunicipality,
    useAsDefault: texts.useAsDefault,
    save: texts.save,
  };
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {flash.error && (
        <AccountFlash kind="error" testId="address-error">
          {texts.errors[flash.error]}
        </AccountFlash>
      )}
      <AddressForm
        action={action}
        initial={initial}
        isDefault={isDefault}
        municipalities={municipalities}
        texts={formTexts}
        refusedField={flash.error === "invalid_input" ? flash.field : undefined}
      />
      <ShopLink href="/account#addresses" className="text-brand-700 hover:underline">
        {texts.back}
      </ShopLink>
    </div>
  );
}
