import { firstOf, readFlash, type PageQuery } from "@/lib/flash";
import {
  CORRECTION_DONE,
  CORRECTION_ERRORS,
  CORRECTION_FIELDS,
  CORRECTION_REFUSED_PARAM,
} from "@/lib/orders/refund-correction-rules";
import { REFUND_DONE, REFUND_ERRORS, REFUND_FIELDS, REFUND_FLASH } from "@/lib/orders/refund-rules";

/** The id of the refunds section's message, which describes the field a refusal names. */
export const REFUND_FLASH_ID = "refund-flash";

/**
 * The outcome of the refunds section's last form (REFUND_FLASH's parameters): what was done, or
 * why nothing was and about which field, and whose form it was: a refund's correction (`correct`,
 * its number) or, without one, the new refund's.
 */
export function refundFlashOf(query: PageQuery) {
  const flash = readFlash(
    query,
    {
      done: [...REFUND_DONE, ...CORRECTION_DONE],
      errors: [...new Set([...REFUND_ERRORS, ...CORRECTION_ERRORS])],
      fields: [...new Set([...REFUND_FIELDS, ...CORRECTION_FIELDS])],
    },
    REFUND_FLASH,
  );
  const correct = firstOf(query[CORRECTION_REFUSED_PARAM]);
  return { ...flash, correcting: correct && /^[1-9][0-9]{0,9}$/.test(correct) ? Number(correct) : undefined };
}
export type RefundFlash = ReturnType<typeof refundFlashOf>;

/** aria-invalid and the section's message as a field's description, when the last refusal was about it. */
export function describedWhen(invalid: boolean, hintId?: string) {
  const ids = [hintId, invalid ? REFUND_FLASH_ID : undefined].filter(Boolean).join(" ");
  return { ...(ids ? { "aria-describedby": ids } : {}), ...(invalid ? { "aria-invalid": true as const } : {}) };
}
