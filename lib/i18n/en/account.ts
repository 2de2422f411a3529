import type { accountTexts as pt } from "../pt/account";

/** The shopper's account, in English: see ../pt/account.ts. */
export const accountTexts: typeof pt = {
  account: {
    codeMessage: (code, shop, minutes) =>
      `${code} is your code to sign in to ${shop}. It is valid for ${minutes} minutes. Do not share it with anyone.`,
  },
};
