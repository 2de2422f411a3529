/**
 * How big an order may be. A module of its own, without zod, because browser code needs these
 * numbers too (the cart notices, the quantity field), and the catalogue's JavaScript should not
 * carry a validation library to read two constants.
 */
export const MAX_ORDER_LINES = 50;
export const MAX_LINE_QUANTITY = 99;
