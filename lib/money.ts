/** Prices as people read them: always whole kwanza, in Angola's format whatever the page's language. */

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
