import "server-only";
import { headers } from "next/headers";

/**
 * Whether the shopper's browser asks for less data: the `Save-Data: on` request header (a data
 * saver, a browser for slow networks). The cached catalogue and product pages cannot read a
 * header: next.config.mjs routes such requests to their own cached form (app/[lang]/(shop)/save-data/)
 * and says `Vary: Save-Data`; a page rendered per request (/search) reads it here, and proxy.ts
 * adds the Vary. What changes for the shopper: docs/storefront.md.
 */

/** The header's value means "on" (the token is case-insensitive; anything else is no). */
export const savesData = (value: string | null | undefined): boolean => value?.trim().toLowerCase() === "on";

export async function requestSavesData(): Promise<boolean> {
  return savesData((await headers()).get("save-data"));
}
