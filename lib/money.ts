/**
 * Prices as people read them: always whole kwanza, in Angola's format whatever the page's language;
 * and counts in the same format. The formatters are made once: making one costs far more than using it.
 */

const kwanza = new Intl.NumberFormat("pt-AO", {
  style: "currency",
  currency: "AOA",
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});

/** Integer AOA for people, e.g. 12 500 Kz in pt-AO. */
export function formatAoa(amount: number): string {
  return kwanza.format(amount);
}

const whole = new Intl.NumberFormat("pt-AO");

/** A count for people, e.g. 12 500 in pt-AO. */
export function formatCount(value: number): string {
  return whole.format(value);
}

/** A signed amount as the shop writes a deduction: −1 000 Kz with a minus sign, never a hyphen. */
export function formatSignedAoa(amount: number): string {
  return amount < 0 ? `−${kwanza.format(-amount)}` : kwanza.format(amount);
}
