/**
 * What a page shows instead of itself: not found, on its way, failed. In English; composed into
 * ../en.ts.
 */

import type { stateTexts as pt } from "../pt/states";

export const stateTexts: typeof pt = {
  notFound: {
    title: "Page not found",
    body: "This address does not exist or is no longer available.",
    home: "Go to the products",
  },
  states: {
    loading: "Loading…",
    errorTitle: "Something went wrong",
    errorBody: "This page could not be shown. Please try again in a moment.",
    tryAgain: "Try again",
    home: "Go to the products",
    errorCode: (digest: string) => `Error code: ${digest}`,
  },
};
