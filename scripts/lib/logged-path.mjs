// What scripts/serve.mjs may write to its log about a request's address: the path without its
// query (which can carry a phone or an order number), each order id
// (the key to an order's page: /orders/order_…, /api/pay/order/order_…/status, the back office's
// order pages) replaced by its short hash. Plain JavaScript for plain `node`; the hash is
// lib/log.ts's orderLogRef, which the shop's own log lines use (tests/unit/log-redaction.test.ts
// keeps the two equal), so an operator follows one order through both.
import { createHash } from "node:crypto";

const ORDER_ID = /order_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

const orderLogRef = (orderId) =>
  `order#${createHash("sha256").update(orderId.toLowerCase()).digest("hex").slice(0, 12)}`;

/** `/en/orders/order_…?paid=1` → `/en/orders/order#3f9c…`. */
export function loggedPath(url) {
  const path = (url ?? "/").split(/[?#]/, 1)[0] || "/";
  return path.replace(ORDER_ID, orderLogRef);
}
