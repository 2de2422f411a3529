import { z } from "zod";
import { formIntegerBetween, formOptional, requiredText } from "../text-input";
import { REFUND_LIMITS } from "./refund-rules";

/**
 * What a correcting entry is made of and what may be asked of one, pure so that the order page's
 * form may load it: the input as a JSON client or the form sends it, and the outcome's vocabulary.
 * A correction says that part or all of a refund was not given back after all (a wrong amount, a
 * transfer that bounced); lib/orders/refund-corrections-admin.ts records it. Its outcome comes
 * back to the order page in the refund form's parameters (REFUND_FLASH), which name the refund in
 * `correct` when it was refused, so that its form opens again.
 */

export const CORRECTION_FIELDS = ["amountAoa", "note"] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];

/** Why a correction was not recorded; the order page has a sentence for each. */
export const CORRECTION_ERRORS = ["invalid_input", "no_such_refund", "not_a_refund", "exceeds_refund", "busy"] as const;
export type CorrectionError = (typeof CORRECTION_ERRORS)[number];
export const CORRECTION_DONE = ["corrected"] as const;
export type CorrectionDone = (typeof CORRECTION_DONE)[number];

/** The query parameter naming the refund whose correction was refused. */
export const CORRECTION_REFUSED_PARAM = "correct";

export const correctionInputSchema = z.object({
  /**
   * How much of the refund was not given back, in whole kwanza (positive: the entry records it
   * negative). Absent: all of the refund that earlier corrections have not taken back.
   */
  amountAoa: formOptional(formIntegerBetween(1, REFUND_LIMITS.amountMax, " AOA")),
  /** Why: required, the record's only explanation. */
  note: requiredText(REFUND_LIMITS.noteMax),
});
export type CorrectionInput = z.infer<typeof correctionInputSchema>;
