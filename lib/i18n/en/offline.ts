/**
 * The offline page (app/[lang]/(shop)/offline/page.tsx), which the service worker shows for a page it
 * cannot load without the internet. In English; composed into ../en.ts.
 */

import type { offlineTexts as pt } from "../pt/offline";

export const offlineTexts: typeof pt = {
  offline: {
    title: "You are offline",
    body: "This page needs the internet and is not kept on this device. Try again when you are back online.",
    retry: "Try again",
    keptTitle: "What you can open offline",
    keptIntro: (days: number) =>
      `The pages of the orders you opened in this browser in the last ${days} days: the reference to pay, the entity, the amount and until when, and the order's status when you opened them.`,
    keptNone: "No orders are kept in this browser yet.",
    pageKinds: { pending: "Reference to pay", success: "Payment confirmation", order: "Order page" },
    savedAt: (when: string) => `Saved ${when} (Luanda time)`,
    forget: {
      title: "On this phone",
      intro:
        "On a phone other people use, you can delete what this browser keeps of your orders: the pages that open offline, the “My orders” list and the cart. Your orders are not cancelled.",
      button: "Forget this phone",
      question: "Delete the kept pages, the “My orders” list and the cart from this browser?",
      yes: "Yes, forget",
      no: "Cancel",
      done: "Done: this browser no longer keeps your orders. You can find them again by their number and your phone.",
      doneOffline:
        "The kept pages were deleted. The “My orders” list and the cart can only be forgotten online: press again when you are back online.",
      failed: "The pages kept in this browser could not be deleted. Please try again.",
    },
  },
};
