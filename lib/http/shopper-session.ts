import "server-only";
import { headers } from "next/headers";
import { signedInShopper, type SignedInShopper } from "../accounts/current-shopper";

/**
 * The signed-in shopper of the page being rendered (lib/accounts/current-shopper.ts), for the
 * account's pages and the checkout, which are rendered per request anyway. Never for a cached
 * page (catalogue, category, product): reading the request's headers would make it per request.
 */
export async function currentShopper(): Promise<SignedInShopper | null> {
  return signedInShopper(await headers());
}
