import { adminOrderTexts } from "../i18n/pt/admin-orders";
import type { FulfilmentState } from "./fulfilment-states";
import { shortOrderId } from "./order-number";
import type { OrderStatus } from "./state-machine";

/**
 * What the back office's WhatsApp link to a customer types in: a text for the order's current
 * state, always in Portuguese (the customers' language, whatever the back office reads), naming
 * the order by the number the customer's page shows.
 */

export interface MessageOrder {
  externalTransactionId: string;
  status: OrderStatus;
  fulfilmentState: FulfilmentState | null;
}

/** The text for `order`: its fulfilment step once paid and under way, else its payment status. */
export function customerMessage(order: MessageOrder): string {
  const texts = adminOrderTexts.order.message.texts;
  const number = shortOrderId(order.externalTransactionId);
  // A state is only ever set on a paid order, but a cancelled one's text wins if both were there.
  if (order.status === "CON" && order.fulfilmentState) return texts[order.fulfilmentState](number);
  return texts[order.status](number);
}
