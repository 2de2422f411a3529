/**
 * The fulfilment of a paid order, as a pure table: what may follow what. The statement that
 * applies a step is in ./fulfilment.ts; the pages and the list read the names. Nothing goes back:
 * a mistake is a note on the next step.
 */

export const FULFILMENT_STATES = ["shipped", "ready_for_pickup", "delivered", "collected"] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];

export const DELIVERY_METHODS = ["pickup", "delivery"] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** The back office's list filter: the states and "to prepare" (CON with no state yet). */
export const FULFILMENT_FILTERS = ["to_prepare", ...FULFILMENT_STATES] as const;
export type FulfilmentFilter = (typeof FULFILMENT_FILTERS)[number];

/**
 * The state a step must start from (null: to prepare), and the methods it is allowed for (null: none set).
 *
 *   (to prepare) ──▶ shipped ──────────▶ delivered     a delivery order (or one with no method)
 *        └────────▶ ready_for_pickup ──▶ collected     a pickup order (or one with no method)
 *
 * "To prepare" is no state of its own: a CON order whose `fulfilment_state` is NULL. Orders placed
 * before the shop had delivery methods have none, so either first step is allowed for them; each
 * later step follows from the first.
 */
const STEPS: Record<FulfilmentState, { from: FulfilmentState | null; methods: readonly (DeliveryMethod | null)[] }> = {
  shipped: { from: null, methods: ["delivery", null] },
  ready_for_pickup: { from: null, methods: ["pickup", null] },
  delivered: { from: "shipped", methods: ["delivery", null] },
  collected: { from: "ready_for_pickup", methods: ["pickup", null] },
};

/** The state `to` must be reached from, and the delivery methods for which it is a step at all. */
export const stepTo = (to: FulfilmentState) => STEPS[to];

/** Whether an order of `method` in fulfilment state `from` may move to `to`. */
export function canFulfil(from: FulfilmentState | null, to: FulfilmentState, method: DeliveryMethod | null): boolean {
  const step = STEPS[to];
  return step.from === from && step.methods.includes(method);
}

/** The steps the back office offers for a paid order of `method` in state `from`, in table order. */
export const nextFulfilmentStates = (from: FulfilmentState | null, method: DeliveryMethod | null): FulfilmentState[] =>
  FULFILMENT_STATES.filter((to) => canFulfil(from, to, method));

/**
 * The steps a shopper's order goes through, for its page: to prepare, then shipped and delivered
 * (a delivery), ready for pickup and collected (a pickup), or, for an order with no method, the
 * path its first step took (a delivery's until then).
 */
export function fulfilmentPath(method: DeliveryMethod | null, current: FulfilmentState | null): FulfilmentState[] {
  const pickup = method === "pickup" || current === "ready_for_pickup" || current === "collected";
  return pickup ? ["ready_for_pickup", "collected"] : ["shipped", "delivered"];
}

export const isFulfilmentState = (value: unknown): value is FulfilmentState =>
  FULFILMENT_STATES.some((state) => state === value);

export const isDeliveryMethod = (value: unknown): value is DeliveryMethod =>
  DELIVERY_METHODS.some((method) => method === value);
