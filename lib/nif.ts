/**
 * An Angolan NIF (número de identificação fiscal), as the checkout takes a buyer's and the
 * settings take the shop's: the two forms the tax administration (AGT) issues since the NIF
 * reform of Decreto Executivo 366/17, checked by their shape only (docs/checkout.md, "NIF"):
 *
 * - a person's: the number of their identity card (bilhete de identidade), 14 characters: nine
 *   digits (the sequential number), two letters (where it was issued, LA for Luanda), then three
 *   digits (the card's version and a check digit), e.g. `001234567LA042`;
 * - a company's (or another entity's): ten digits, e.g. `5000767115`.
 *
 * The BI's check digit is computed by a rule nobody publishes, so it is not checked: a NIF of the
 * right shape is taken as typed. Pure and browser-safe (the checkout form checks as one types).
 */

/** A person's NIF (the identity card's number), once normalised. */
const PERSON = /^[0-9]{9}[A-Z]{2}[0-9]{3}$/;
/** A company's NIF, once normalised. */
const COMPANY = /^[0-9]{10}$/;

/** The longest a NIF may be typed, separators included (the form's maxlength). */
export const NIF_INPUT_MAX = 20;

export type NifKind = "person" | "company";

/**
 * The NIF as the shop stores and prints it: upper case, without the spaces, dots and dashes people
 * group it with (`500 002 85 50`, `001234567-la-042`).
 */
export const normaliseNif = (typed: string): string => typed.replace(/[\s.-]/g, "").toUpperCase();

/** Which of the two forms a normalised NIF has; null when it has neither. */
export function nifKind(nif: string): NifKind | null {
  if (PERSON.test(nif)) return "person";
  if (COMPANY.test(nif)) return "company";
  return null;
}

/** What a refused NIF is told, naming both forms (the field's name comes before it). */
export const NIF_RULE =
  "must be an Angolan NIF: a person's is 9 digits, 2 letters and 3 digits (001234567LA042), a company's 10 digits";
