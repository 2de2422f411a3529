/**
 * What one phone is: the key every comparison of phones uses (per-phone promo limits, order
 * lookup, per-phone caps). Pure, so the browser may load it.
 */

/** The same phone whatever its form: its digits, without the international prefix of Angola (244). */
export function phoneKey(phone: string): string {
  let digits = phone.replace(/\D/g, "");
  if (digits.startsWith("00")) digits = digits.slice(2);
  if (digits.startsWith("244") && digits.length > 9) digits = digits.slice(3);
  return digits;
}
