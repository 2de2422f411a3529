import "server-only";
import { shopperAuth } from "./shopper-auth";

/**
 * Who is signed in, from a request's headers (its session cookie): the account's id and phone
 * key, and what it keeps for the checkout. Null when nobody is, when the session ended (signed
 * out here or everywhere, the account deleted) and while accounts are off.
 */

export interface SignedInShopper {
  id: string;
  /** The verified phone's key (lib/phone.ts phoneKey): `923111222`, `+351912345678`. */
  phoneKey: string;
  /** Empty until the shopper gives one. */
  name: string;
  contactEmail: string | null;
  nif: string | null;
}

export async function signedInShopper(headers: Headers): Promise<SignedInShopper | null> {
  const auth = shopperAuth();
  if (!auth || !mayHoldSession(headers)) return null;
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  return shopperOf(session.user);
}

/**
 * The same, with the Set-Cookie headers that keep the session's cookie alive for 30 more days
 * once its row has moved on (better-auth does that at most once a day): what a route handler
 * answering the shopper's own browser copies into its response (the header's GET /api/cart).
 */
export async function signedInShopperRefreshing(
  headers: Headers,
): Promise<{ shopper: SignedInShopper | null; setCookies: string[] }> {
  const auth = shopperAuth();
  if (!auth || !mayHoldSession(headers)) return { shopper: null, setCookies: [] };
  const { headers: answered, response } = await auth.api.getSession({ headers, returnHeaders: true });
  const setCookies = answered.getSetCookie();
  return { shopper: response ? shopperOf(response.user) : null, setCookies };
}

/**
 * Whether a request carries a session cookie at all: the header asks on every page, and most of
 * those who ask are not signed in; they cost no more than reading their cookie header.
 */
const mayHoldSession = (headers: Headers) => headers.get("cookie")?.includes("session_token=") ?? false;

type SessionUser = { id: string; phoneNumber?: string | null; name: string; contactEmail?: unknown; nif?: unknown };

function shopperOf(user: SessionUser): SignedInShopper | null {
  // Every account has a verified phone: better-auth makes it at the code's check.
  if (!user.phoneNumber) return null;
  return {
    id: user.id,
    phoneKey: user.phoneNumber,
    name: user.name,
    contactEmail: typeof user.contactEmail === "string" ? user.contactEmail : null,
    nif: typeof user.nif === "string" ? user.nif : null,
  };
}

/** A cookie as a response sets it (Next's `response.cookies.set`). */
export interface ExpiredCookie {
  name: string;
  value: "";
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "lax";
  maxAge: 0;
}

/**
 * The session's cookies, expired, under the names better-auth gives them (`shop.session_token`,
 * `__Secure-shop.session_token` over https, and its companions): what a response that ends the
 * session outside better-auth's own endpoints sends (the account deleted). None while accounts are off.
 */
export async function expiredSessionCookies(): Promise<ExpiredCookie[]> {
  const auth = shopperAuth();
  if (!auth) return [];
  const { authCookies } = await auth.$context;
  return [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken].map(
    ({ name, attributes }) => ({
      name,
      value: "",
      path: attributes.path ?? "/",
      httpOnly: true,
      secure: attributes.secure === true,
      sameSite: "lax",
      maxAge: 0,
    }),
  );
}
