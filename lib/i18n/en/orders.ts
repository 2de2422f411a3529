/**
 * The shopper's order page, /orders and /orders/lookup, and the fulfilment states both the shop and
 * the back office show. In English; composed into ../en.ts.
 */

import type { orderTexts as pt } from "../pt/orders";

/** "1 hour", "24 hours". */
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A life span in minutes as people say it: "24 hours", "90 minutes". */
function duration(minutes: number): string {
  if (minutes % 1440 === 0 && minutes >= 2880) return plural(minutes / 1440, "day", "days");
  if (minutes % 60 === 0) return plural(minutes / 60, "hour", "hours");
  return plural(minutes, "minute", "minutes");
}

export const orderTexts: typeof pt = {
  order: {
    title: (shortId: string) => `Order ${shortId}`,
    successTitle: "Thank you for your purchase",
    pendingTitle: "Payment by reference",
    status: { PEN: "Pending", CON: "Paid", CAN: "Cancelled" },
    waiting: "Waiting for the payment to be confirmed…",
    waitingBody: "This page updates by itself when the payment service confirms.",
    pendingBody:
      "Pay with the details below at a cash machine or your bank. This page updates once the payment is confirmed.",
    referenceUnknown: "The payment reference appears here as soon as the service provides it.",
    paymentReference: "Reference",
    entityNumber: "Entity",
    amount: "Amount",
    copyNamed: (what: string) => `Copy ${what.toLowerCase()}`,
    copied: "Copied",
    copyFailed: "Could not copy; select it and copy by hand.",
    lifeSpan: (minutes: number) => `The reference is valid for ${duration(minutes)}.`,
    payBy: (when: string) => `Pay by ${when}: after that the order is cancelled and the items go back on sale.`,
    slip: {
      heading: (shop: string) => `${shop}: payment by reference`,
      validUntil: "Valid until",
      copyValidUntil: "Copy the deadline",
      luandaTime: (when: string) => `${when} (Luanda time)`,
      share: "Share",
      shareName: "Share the reference",
      save: "Save",
      saveName: "Save the reference to a file",
    },
    confirmed: "Payment confirmed",
    confirmedBody: "We received your payment. Thank you!",
    cancelled: "Payment cancelled",
    cancelledBody: "This order was cancelled and nothing was charged. The items are back in your cart.",
    paidAfterCancel: "Payment received after the cancellation",
    paidAfterCancelBody:
      "The payment arrived after the order had been cancelled. The shop gives the amount back or, if it still has the items, sends the order; this page shows what is decided.",
    backToCart: "Back to the cart",
    stillWaiting: "No confirmation yet.",
    checkAgain: "Check again",
    checking: "Checking…",
    lines: "Items",
    total: "Total",
    viewOrder: "View the order",
    continueShopping: "Continue shopping",
    talkToUs: "Talk to us",
    whatsappText: (shortId: string) => `Hello! I have a question about order ${shortId}.`,
  },
  /** /orders ("My orders", lib/orders/lookup.ts) and /orders/lookup, which offers the sign-in by phone. */
  orders: {
    title: "My orders",
    intro: "The orders placed in this browser, newest first.",
    none: "No order has been placed in this browser yet.",
    otherDevice: "Ordered on another device?",
    signInForAll: "Sign in with your phone to see every order placed with it.",
    order: "Order",
    date: "Date",
    status: "Status",
    items: "Items",
    total: "Total",
    lookupTitle: "Find an order",
    lookupIntro:
      "To see an order placed on another device, sign in with the phone you ordered with: you get a code by WhatsApp or SMS, and “My account” lists every order placed with that phone.",
    lookupWhy:
      "The shop no longer opens an order with just its number and a phone: both are on the bank-reference slip and in the messages people share, and the order holds your address and NIF.",
    signIn: "Sign in with your phone",
    signedIn: "You are signed in with your phone.",
    accountLink: "See my orders in “My account”",
    accountsOff:
      "Signing in with a phone is not available in this shop yet. To ask about an order placed on another device, contact the shop.",
    myOrdersLink: "See the orders placed in this browser",
  },
  fulfilment: {
    states: {
      to_prepare: "To prepare",
      shipped: "Shipped",
      ready_for_pickup: "Ready for pickup",
      delivered: "Delivered",
      collected: "Collected",
    },
    methods: { pickup: "Pickup at a point", delivery: "Home delivery" },
    noMethod: "No delivery method (an earlier order)",
    deliveryTitle: "Delivery",
    method: "Method",
    zone: "Zone",
    estimatedDays: (days: number) => (days === 1 ? "Expected in 1 day" : `Expected in ${days} days`),
    address: "Delivery address",
    pickupPoint: "Pickup point",
    hours: "Opening hours",
    email: "Email",
    subtotal: "Subtotal",
    discount: (code: string | null) => (code ? `Discount (${code})` : "Discount"),
    deliveryFee: "Delivery",
    total: "Total",
    stepsTitle: "Order progress",
    stepDone: (at: string) => `on ${at}`,
    stepToCome: "to come",
    note: "Note from the shop",
  },
};
