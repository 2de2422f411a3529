import type { FlashKeys, FlashVocabulary } from "../flash";
import { SAVED_ADDRESS_FIELDS, type SavedAddressField } from "./address-rules";

/**
 * What the account's forms tell their pages (lib/flash.ts): the query parameters of each part of
 * /account (its orders, its profile, its addresses) and of the address pages, and the outcomes
 * each may show. Written by the routes under app/api/account, read by the pages, which show only
 * what is listed here. Pure.
 */

/** "Comprar de novo" refused (its success goes to the cart). */
export const ORDERS_FLASH: FlashKeys = { done: "orders", error: "ordersError", field: "ordersField", hash: "#orders" };
export const PROFILE_FLASH: FlashKeys = {
  done: "profile",
  error: "profileError",
  field: "profileField",
  hash: "#profile",
};
export const ADDRESSES_FLASH: FlashKeys = {
  done: "address",
  error: "addressError",
  field: "addressField",
  hash: "#addresses",
};

/** Refused whatever the form: a body that could not be read, the database out of reach. */
const ANY_FORM = ["invalid_input", "unavailable"] as const;

export const ORDERS_OUTCOMES = {
  done: [],
  errors: [...ANY_FORM, "not_found", "cart_locked"],
} as const satisfies FlashVocabulary<never, string, never>;

export const PROFILE_FIELDS_SHOWN = ["name", "email", "nif"] as const;
export const PROFILE_OUTCOMES = {
  done: ["saved"],
  errors: [...ANY_FORM, "not_found"],
  fields: PROFILE_FIELDS_SHOWN,
} as const satisfies FlashVocabulary<string, string, string>;

/** The list on /account (made default, deleted) and the address pages (saved). */
export const ADDRESS_OUTCOMES = {
  done: ["saved", "made_default", "deleted"],
  errors: [...ANY_FORM, "not_found", "too_many_addresses", "address_conflict"],
  fields: SAVED_ADDRESS_FIELDS as readonly SavedAddressField[],
} as const satisfies FlashVocabulary<string, string, string>;

export type OrdersError = (typeof ORDERS_OUTCOMES.errors)[number];
export type ProfileError = (typeof PROFILE_OUTCOMES.errors)[number];
export type AddressDone = (typeof ADDRESS_OUTCOMES.done)[number];
export type AddressError = (typeof ADDRESS_OUTCOMES.errors)[number];
