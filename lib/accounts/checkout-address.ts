import "server-only";
import type { Database } from "../db/client";
import type { DeliveryAddress } from "../checkout/checkout-rules";
import { listAddresses, saveAddress } from "./addresses";

/**
 * "Guardar este endereço" at the checkout: the delivery address of an order just created, kept on
 * the signed-in shopper's account (lib/accounts/addresses.ts). An address the account keeps
 * already (the same parts, case and runs of spaces aside) is not kept twice, so a checkout
 * answered again, or a shopper who ticks the box for the address they chose, adds nothing.
 */

/** What became of the address: the checkout's answer says it, and never fails the order for it. */
export type CheckoutAddressOutcome = "saved" | "already_saved" | "too_many_addresses" | "not_saved";

const comparable = (text: string) => text.trim().replace(/\s+/g, " ").toLocaleLowerCase("pt");

export const sameAddress = (a: DeliveryAddress, b: DeliveryAddress) =>
  comparable(a.province) === comparable(b.province) &&
  comparable(a.municipality) === comparable(b.municipality) &&
  comparable(a.neighbourhood) === comparable(b.neighbourhood) &&
  comparable(a.street) === comparable(b.street) &&
  comparable(a.reference) === comparable(b.reference);

export async function keepCheckoutAddress(
  db: Pick<Database, "shopperAddress" | "$transaction">,
  shopperId: string,
  address: DeliveryAddress,
): Promise<CheckoutAddressOutcome> {
  if ((await listAddresses(db, shopperId)).some((saved) => sameAddress(saved, address))) return "already_saved";
  const result = await saveAddress(db, shopperId, address);
  if (result.ok) return "saved";
  // An eleventh address (the checkout offers the box only below the limit: another tab filled
  // it meanwhile), or the account deleted since the page was opened.
  return result.code === "too_many_addresses" ? "too_many_addresses" : "not_saved";
}
