import type { OrderPageKind } from "@/lib/offline/offline-rules";

/**
 * The texts of the offline page's list (./kept-order-pages.tsx), which the server hands over
 * from the dictionary: each with a SLOT where the browser puts what only it knows (the order's
 * number, when the page was saved), so that the page loads no dictionary. Not a client module:
 * the server page reads SLOT too.
 */

/** Where a text takes the value the browser fills in. */
export const SLOT = "{}";

export interface KeptOrderPagesTexts {
  /** The shop's locale, for the dates. */
  locale: string;
  none: string;
  /** "Encomenda {}". */
  order: string;
  kinds: Record<OrderPageKind, string>;
  /** "Guardada a {} (hora de Luanda)". */
  savedAt: string;
}

export const fillSlot = (text: string, value: string) => text.replace(SLOT, value);
