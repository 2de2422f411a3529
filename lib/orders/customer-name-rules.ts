import { z } from "../browser-zod";

/**
 * What the checkout takes as a shopper's name: a person's or a company's name and nothing else.
 * The name goes into the shop's mails and pages, so text that could make a stranger act (a web
 * or e-mail address, a phone number, an amount, markup) is refused before any order exists.
 * Browser-safe: the checkout form checks the name with the very schema the server applies.
 *
 * The rules, checked on the name's NFKC form (so full-width ｗｗｗ．, ＠ and ＜ count as what they
 * look like):
 * - no `<` or `>`;
 * - no `@` (no e-mail address);
 * - no web address: no `://`, no `www.`, and no dot glued between a letter or digit and two
 *   letters (`site.ao`, `premio-loja.example/kz`); initials keep their dot and space ("J. R.
 *   Tolkien", and "J.R.R. Tolkien", whose letters after each dot are single);
 * - no run of more than 4 digits, separators included ("923 456 789", "500.000", "1-2-3-4-5"
 *   are one run each): a name may carry a number ("João 2º", "Loja 24 Horas", a year) but never a
 *   phone number or an amount, and a phone's shortest form has 7 digits;
 * - no invisible characters (control and format characters: zero-width spaces, bidirectional
 *   overrides) that could hide or reorder any of the above; line breaks and tabs pass (the mails
 *   put the name on one line).
 * Accents, apostrophes, hyphens, ordinals and every script's letters pass.
 */

export const CUSTOMER_NAME_MAX = 100;

/** The refusal of a name carrying more than a name; the checkout form shows its own words for it. */
export const NOT_A_NAME = "must be a name only: no web or email address, phone number, < or >";

/** The longest run of digits a name may hold. */
export const NAME_DIGITS_MAX = 4;

const FORBIDDEN: RegExp[] = [
  /[<>@]/u,
  /:\/\/|www\./iu,
  // A label, a dot, and a label of two letters or more: a domain. Ideographic full stops count.
  /[\p{L}\p{N}][.。][\p{L}\p{M}]{2}/u,
  new RegExp(`\\p{Nd}(?:[\\s.,·:;'’()/+*#_\\-–—]*\\p{Nd}){${NAME_DIGITS_MAX}}`, "u"),
  // Control characters other than white space, and format characters (zero-width, bidi).
  /[\p{Cf}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u,
];

/** Whether `name` is a name only (the rules above). */
export const isNameOnly = (name: string): boolean => {
  const shown = name.normalize("NFKC");
  return !FORBIDDEN.some((rule) => rule.test(shown));
};

export const customerNameSchema = z
  .string()
  .trim()
  .min(1, { error: "is empty" })
  .max(CUSTOMER_NAME_MAX, { error: `is longer than ${CUSTOMER_NAME_MAX} characters` })
  .refine(isNameOnly, { error: NOT_A_NAME });
