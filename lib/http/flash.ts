import "server-only";
import { withFlash, PAGE_FLASH, type FlashKeys, type FlashParams } from "../flash";
import { seeOther } from "./form-requests";

/**
 * The server's side of a form's outcome in the next page's query (../flash.ts writes and reads
 * it): an action's result as the parameters a page reads, and the 303 that carries them.
 */

/** What a flash says of an action: what it did, or why it did nothing and about which field. */
export type FlashOutcome =
  | { ok: true; done?: string }
  | { ok: false; code: string; field?: string; /** The page's code, when the client's differs. */ flash?: string };

/** `outcome` in the parameters `keys` name; `refused` adds to a refusal's (which of the page's forms it was). */
export function outcomeParams(outcome: FlashOutcome, keys: FlashKeys = PAGE_FLASH, refused?: FlashParams): FlashParams {
  if (outcome.ok) return { [keys.done]: outcome.done };
  return { [keys.error]: outcome.flash ?? outcome.code, [keys.field]: outcome.field, ...refused };
}

/** 303 to `page` with `params` in its query, then `hash`. */
export const seeOtherWithFlash = (page: string, params: FlashParams, hash?: string) =>
  seeOther(withFlash(page, params, hash));
