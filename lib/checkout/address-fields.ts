import type { DeliveryOptions } from "../delivery/zones";
import type { ADDRESS_LIMITS } from "./checkout-rules";

/**
 * The delivery address as a form asks for it, shared by the forms that take one (the account's
 * saved addresses; the checkout's own fields are in the same order): its fields in the order
 * people write them, what the browser may fill each with, and which municipalities to choose
 * from. Pure, so the browser may load it.
 */

export type AddressField = keyof typeof ADDRESS_LIMITS;

export const ADDRESS_FIELDS: readonly AddressField[] = [
  "province",
  "municipality",
  "neighbourhood",
  "street",
  "reference",
];

export const ADDRESS_AUTOCOMPLETE: Record<AddressField, string> = {
  province: "address-level1",
  municipality: "address-level2",
  neighbourhood: "address-level3",
  street: "street-address",
  // A landmark is this shopper's own words for this door: nothing a browser keeps would fit.
  reference: "off",
};

/** Where the checkout starts a new address: the shop's city. */
export const DEFAULT_PROVINCE = "Luanda";

/**
 * The municipalities an address kept for later may name, as the checkout's choice offers them
 * (the ones the delivery zones serve, by name): when every active zone lists its own, an address
 * elsewhere could never be delivered to, so the form offers these alone. Null when any
 * municipality may be typed: a zone that lists none takes any address it is picked for, and a
 * shop without zones takes none the checkout would check.
 */
export function municipalityChoices(zones: DeliveryOptions["zones"]): string[] | null {
  if (zones.length === 0 || zones.some((zone) => zone.municipalities.length === 0)) return null;
  return [...new Set(zones.flatMap((zone) => zone.municipalities))].sort((a, b) => a.localeCompare(b, "pt"));
}
