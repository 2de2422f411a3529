import { randomUUID } from "node:crypto";
import { shopCookie } from "../cookies";
import { isUuid } from "../uuid";

/**
 * The shopper's two cookies, both httpOnly: the server-side cart and an anonymous shopper id,
 * which is the stable `clientId` the service asks for (contract 2.2) — never a name or phone.
 */
export const CART_COOKIE = "cart_id";
export const SHOPPER_COOKIE = "shopper_id";

const SHOPPER_ID = /^shopper_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The cart id from its cookie, or undefined when the cookie is absent or not a cart id. */
export const readCartId = (value: string | undefined) => (value && isUuid(value) ? value : undefined);

export const readShopperId = (value: string | undefined) => (value && SHOPPER_ID.test(value) ? value : undefined);

export const newShopperId = () => `shopper_${randomUUID()}`;

export const shopperCookie = (value: string, appUrl: string) =>
  shopCookie(SHOPPER_COOKIE, value, appUrl, 365 * 24 * 3600);

/**
 * Both cookies, expired: what "Esquecer este telefone" (app/api/shopper/forget/route.ts) sends, so
 * that a shared phone no longer lists this shopper's orders ("As minhas encomendas") or holds
 * their cart. The orders themselves stay; a new order gets a new shopper id.
 */
export const forgottenShopperCookies = (appUrl: string) =>
  [SHOPPER_COOKIE, CART_COOKIE].map((name) => shopCookie(name, "", appUrl, 0));
