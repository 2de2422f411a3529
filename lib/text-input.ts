import { z } from "zod";
import type { Refusal } from "./refusal";

/**
 * What every form and query of the shop asks of a text, in one place: PostgreSQL's `text` cannot
 * hold a NUL character, so one is refused here with a 400 naming the field, never by the database
 * (a 500); and the refusal of a form's input, with the field the back office's pages point at.
 */

/** zod issues as one readable message naming each field, e.g. `items.0.quantity must be at least 1`. */
export function describeIssues(error: z.ZodError, whole = "body"): string {
  return error.issues.map((issue) => `${issue.path.join(".") || whole} ${issue.message}`).join("; ");
}

export const hasNoNul = (value: string): boolean => !value.includes("\u0000");
export const NO_NUL = { error: "must not contain a NUL character" } as const;

/** A whole number, as JSON sends it or as the decimal digits a form sends ("12", not "12.0" or "1e3"). */
export const formInteger = z.union([
  z.int({ error: "must be a whole number" }),
  z
    .string()
    .trim()
    .regex(/^[+-]?[0-9]{1,10}$/, { error: "must be a whole number" })
    .transform(Number),
]);

/** A field a form sends as "" when untouched (and JSON may send as null): absent. */
export const formOptional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema.optional());

/** A whole number from `min` to `max`, as JSON or a form sends it; `unit` ends the refusal ("must be at most 60 days"). */
export const formIntegerBetween = (min: number, max: number, unit = "") =>
  formInteger.pipe(
    z
      .number()
      .min(min, { error: `must be at least ${min}${unit}` })
      .max(max, { error: `must be at most ${max}${unit}` }),
  );

/**
 * On or off: JSON's true/false (absent is on), or a form's checkbox: the form sends a hidden
 * "false" before it and the box "on" when ticked, so the last value counts.
 */
export const activeFlag = z.preprocess(
  (value) => {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last === undefined) return true;
    if (last === "on" || last === "true" || last === "1") return true;
    if (last === "false" || last === "0" || last === "off") return false;
    return last;
  },
  z.boolean({ error: "must be true or false" }),
);

/**
 * A set of ids (UUIDs) of at most `max`: JSON's array, or a form's checkboxes, one field each,
 * with an empty one always sent so that ticking none says so. Empty values are dropped, the ids
 * lower-cased and each kept once; absent stays absent. `noun` and `nouns` name them in refusals.
 */
export const formUuidList = (max: number, noun: string, nouns: string) =>
  z.preprocess(
    (value) => (value === undefined ? undefined : [value].flat().filter((id) => id !== "")),
    z
      .array(z.uuid({ error: `must be ${noun} ids` }))
      .max(max, { error: `must have at most ${max} ${nouns}` })
      .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
      .optional(),
  );

/** A required text, trimmed, of at most `max` characters, without NUL. */
export const requiredText = (max: number) =>
  z
    .string({ error: "is required" })
    .trim()
    .min(1, { error: "is required" })
    .max(max, { error: `must have at most ${max} characters` })
    .refine(hasNoNul, NO_NUL);

/**
 * A form's input that failed `error`: a 400 `invalid_input` with zod's issues in words and, when
 * the first issue's path is one of `fields` (after `rename`), the field its page shows it on.
 */
export function invalidInput<F extends string>(
  error: z.ZodError,
  fields: readonly F[],
  rename: Readonly<Record<string, F>> = {},
): Refusal<"invalid_input", F> & { status: 400 } {
  const path = String(error.issues[0]?.path[0] ?? "");
  const field = rename[path] ?? fields.find((name) => name === path);
  return {
    ok: false,
    status: 400,
    code: "invalid_input",
    message: describeIssues(error, "input"),
    ...(field ? { field } : {}),
  };
}
