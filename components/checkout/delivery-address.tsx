"use client";

import { ADDRESS_AUTOCOMPLETE, ADDRESS_FIELDS, type AddressField } from "@/lib/checkout/address-fields";
import { ADDRESS_LIMITS, deliveryAddressSchema, type DeliveryAddress } from "@/lib/checkout/checkout-rules";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * The checkout's delivery address: the parts typed (the municipality chosen from those the zones
 * serve, when the delivery goes by municipality), each checked as typed with endpoint A's schema;
 * for a signed-in shopper, first a choice among their saved addresses, or another typed, with
 * "Guardar este endereço". Also what the checkout knows of a signed-in shopper (read by
 * app/[lang]/(shop)/checkout/(form)/page.tsx from the account).
 */

export type CheckoutSavedAddress = DeliveryAddress & { id: string; isDefault: boolean };

export interface CheckoutAccount {
  /** The verified phone, as people read it (lib/phone.ts readablePhone): shown, never an input. */
  phone: string;
  name: string;
  email: string | null;
  nif: string | null;
  /** The account's saved addresses, the default first. */
  addresses: CheckoutSavedAddress[];
  /** Whether the account may keep one more ("Guardar este endereço" is offered only then). */
  canSaveAddress: boolean;
}

export type { AddressField };
export type TypedAddress = Record<AddressField, string>;

/** The choice of typing an address rather than using a saved one. */
export const NEW_ADDRESS = "new";

/**
 * A municipality's name as the zones' list compares it (the database's delivery_municipality_key):
 * lower case, without accents, hyphens and runs of spaces as one space, trimmed.
 */
export const municipalityKey = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[\s-]+/g, " ")
    .trim();

/** One line of an address, as the shopper wrote it: "Rua 5, casa 12, Camama, Talatona, Luanda". */
const addressLine = (address: DeliveryAddress) =>
  [address.street, address.neighbourhood, address.municipality, address.province].join(", ");

export function DeliveryAddressFields({
  t,
  id,
  address,
  onChange,
  touched,
  onTouch,
  municipalities,
  municipalityHint,
  saved,
}: {
  t: Dictionary;
  /** The form's id, before each field's. */
  id: string;
  /** The address typed so far. */
  address: TypedAddress;
  onChange: (key: AddressField, value: string) => void;
  /** The parts the shopper has left: their errors are shown. */
  touched: Partial<Record<AddressField, boolean>>;
  onTouch: (key: AddressField) => void;
  /** The municipalities to choose from (the delivery goes by municipality), or null: typed. */
  municipalities: string[] | null;
  /** Under the municipality: the zone it falls in, or where the shop delivers. */
  municipalityHint?: string;
  /** A signed-in shopper's saved addresses, the one in use, and whether to keep the one typed. */
  saved?: {
    account: CheckoutAccount;
    /** The saved address in use, or NEW_ADDRESS. */
    chosen: string;
    /** Whether the chosen delivery takes this address (its municipality is served). */
    deliverable: (address: CheckoutSavedAddress) => boolean;
    onChoose: (choice: string) => void;
    /** Said under a saved address in use: the zone it falls in. */
    note?: string;
    keep: boolean;
    onKeep: (keep: boolean) => void;
    /** The most addresses an account keeps, for the note shown instead of the box. */
    max: number;
  };
}) {
  const parsed = deliveryAddressSchema.safeParse(address);
  const bad = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0]));
  const typing = !saved || saved.chosen === NEW_ADDRESS;

  const addressField = (key: AddressField) => {
    const error = touched[key] && bad.has(key) ? t.checkout.addressInvalid(ADDRESS_LIMITS[key]) : undefined;
    const hint = key === "reference" ? t.checkout.referenceHint : key === "municipality" ? municipalityHint : undefined;
    const common = {
      id: `${id}-address-${key}`,
      name: key,
      value: address[key],
      onBlur: () => onTouch(key),
      "aria-invalid": error ? true : undefined,
      "aria-describedby": `${id}-address-${key}-message`,
      autoComplete: ADDRESS_AUTOCOMPLETE[key],
      required: true,
      className: "rounded-md border border-stone-300 px-3 py-2 text-base aria-invalid:border-red-600",
    };
    return (
      <div key={key} className="flex flex-col gap-1">
        <label htmlFor={`${id}-address-${key}`} className="text-sm font-medium">
          {t.checkout[key]}
        </label>
        {key === "municipality" && municipalities ? (
          <select {...common} onChange={(event) => onChange("municipality", event.target.value)}>
            <option value="">{t.checkout.chooseMunicipality}</option>
            {municipalities.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        ) : (
          <input {...common} onChange={(event) => onChange(key, event.target.value)} maxLength={ADDRESS_LIMITS[key]} />
        )}
        <p id={`${id}-address-${key}-message`} className="min-h-5 text-sm text-red-700">
          {error ?? (hint ? <span className="text-stone-500">{hint}</span> : null)}
        </p>
      </div>
    );
  };

  return (
    <fieldset className="mt-2 flex flex-col gap-1">
      <legend className="mb-2 text-base font-medium">{t.checkout.address}</legend>
      {saved && saved.account.addresses.length > 0 && (
        <SavedAddressChoice t={t} name={`${id}-saved-address`} {...saved} />
      )}
      {!typing && saved?.note && <p className="mt-1 text-sm text-stone-600">{saved.note}</p>}
      {typing && (
        <div
          className={saved && saved.account.addresses.length > 0 ? "mt-3 flex flex-col gap-1" : "flex flex-col gap-1"}
        >
          {ADDRESS_FIELDS.map(addressField)}
          {saved &&
            (saved.account.canSaveAddress ? (
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="saveAddress"
                  checked={saved.keep}
                  onChange={(event) => saved.onKeep(event.target.checked)}
                />
                <span>{t.checkout.saveAddress}</span>
              </label>
            ) : (
              <p data-testid="addresses-full" className="text-sm text-stone-600">
                {t.checkout.addressesFull(saved.max)}
              </p>
            ))}
        </div>
      )}
    </fieldset>
  );
}

/**
 * The saved addresses as radios, the default first, then "Outra morada". One the chosen delivery
 * cannot take is shown disabled, with why.
 */
function SavedAddressChoice({
  t,
  name,
  account,
  chosen,
  deliverable,
  onChoose,
}: {
  t: Dictionary;
  /** The radios' group name, unique on the page. */
  name: string;
  account: CheckoutAccount;
  chosen: string;
  deliverable: (address: CheckoutSavedAddress) => boolean;
  onChoose: (choice: string) => void;
}) {
  const option = (value: string, title: string, detail?: string, note?: string, disabled = false) => (
    <label
      key={value}
      className="flex cursor-pointer items-start gap-3 rounded-lg border border-stone-200 bg-white px-3 py-2 has-checked:border-brand-700 has-checked:ring-1 has-checked:ring-brand-700 has-disabled:cursor-not-allowed has-disabled:bg-stone-50"
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={chosen === value}
        disabled={disabled}
        onChange={() => onChoose(value)}
        className="mt-1"
      />
      <span className="flex flex-col">
        <span className="font-medium">{title}</span>
        {detail && <span className="text-sm text-stone-600">{detail}</span>}
        {note && <span className="text-sm text-stone-600">{note}</span>}
      </span>
    </label>
  );
  return (
    <div data-testid="saved-addresses" className="flex flex-col gap-2">
      {account.addresses.map((address) => {
        const served = deliverable(address);
        return option(
          address.id,
          addressLine(address),
          address.reference,
          served ? (address.isDefault ? t.checkout.defaultAddress : undefined) : t.checkout.addressNotServed,
          !served,
        );
      })}
      {option(NEW_ADDRESS, t.checkout.otherAddress)}
    </div>
  );
}
