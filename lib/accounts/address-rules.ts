import { ADDRESS_LIMITS, deliveryAddressSchema, type DeliveryAddress } from "../checkout/checkout-rules";

/**
 * A shopper's saved delivery address: the very address the checkout takes (its parts, their
 * lengths and what each may hold, lib/checkout/checkout-rules.ts), so a saved one always passes
 * the checkout it fills in. Browser-safe: the address form checks with this schema too.
 */

/** How many addresses one account keeps. */
export const MAX_SAVED_ADDRESSES = 10;

/** The form fields of an address, which a refusal may name. */
export const SAVED_ADDRESS_FIELDS = Object.keys(ADDRESS_LIMITS) as (keyof typeof ADDRESS_LIMITS)[];
export type SavedAddressField = (typeof SAVED_ADDRESS_FIELDS)[number];

/**
 * The checkout's address itself: its parts, their lengths, and no NUL character in any (the
 * saved address is a row of text columns, which cannot hold one; the refusal names the part).
 */
export const savedAddressSchema = deliveryAddressSchema;

export type SavedAddressInput = DeliveryAddress;
