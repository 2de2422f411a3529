import "server-only";
import { appRateLimits } from "../db/rate-limit";
import { db } from "../db/client";
import { getEnv } from "../env";
import { dictionary } from "../i18n/dictionaries";
import { LANG_COOKIE, parseLang } from "../i18n/languages";
import { APIError } from "better-auth/api";
import { defaultChannel, MessageNotSent, MessagesNotConfigured, sendMessage } from "../messages";
import { CODE_SECONDS, createShopperAuth, type SendSignInCode, type ShopperAuth } from "./auth";

/**
 * The app's one shopper sign-in (lib/accounts/auth.ts), wired to the shop's database, settings,
 * counters and messages: undefined while accounts are off (production without
 * BETTER_AUTH_SECRET), and every page then says so instead of offering a sign-in.
 */

/** The language of the code's message: the shopper's `lang` cookie, as the pages read it. */
function langOf(request: Request | undefined) {
  const cookie = request?.headers.get("cookie") ?? "";
  const value = new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([^;]*)`).exec(cookie)?.[1];
  return parseLang(value === undefined ? undefined : decodeURIComponent(value));
}

/** The code, by the channel the settings choose, in the shopper's language. */
const sendSignInCode: SendSignInCode = async ({ phoneKey, code, request }) => {
  const t = dictionary(langOf(request));
  try {
    await sendMessage({
      to: phoneKey,
      channel: defaultChannel(),
      purpose: "sign-in-code",
      text: t.account.codeMessage(code, t.shop.name, CODE_SECONDS / 60),
      secret: code,
    });
  } catch (error) {
    // Refusals the shopper's page can say plainly; the message names the setting for the owner.
    if (error instanceof MessagesNotConfigured)
      throw new APIError("SERVICE_UNAVAILABLE", { code: "messages_off", message: error.message });
    if (error instanceof MessageNotSent)
      throw new APIError("SERVICE_UNAVAILABLE", {
        code: "message_not_sent",
        message: "the code could not be sent to this phone; please try again in a moment",
      });
    throw error;
  }
};

let shared: ShopperAuth | null | undefined;

export function shopperAuth(): ShopperAuth | undefined {
  if (shared === undefined) {
    const env = getEnv();
    shared = env.accounts
      ? createShopperAuth({
          db: db(),
          secret: env.accounts.secret,
          appUrl: env.appUrl,
          sendCode: sendSignInCode,
          limits: {
            perPhonePerHour: env.accounts.codesPerPhonePerHour,
            perAddressPerHour: env.accounts.codesPerAddressPerHour,
            requestsPerMinute: env.accounts.requestsPerMinute,
          },
          rateLimits: appRateLimits(),
        })
      : null;
  }
  return shared ?? undefined;
}
