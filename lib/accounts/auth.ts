import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { phoneNumber } from "better-auth/plugins/phone-number";
import type { Database } from "../db/client";
import type { RateLimits } from "../db/rate-limit";
import { isLoopback } from "../env";
import { isPhoneKey, phoneKey } from "../phone";
import { customerSchema } from "../orders/customer-rules";
import { CLIENT_ADDRESS_HEADER, spendSignInCode, type SignInCodeLimits } from "./sign-in-limits";

/**
 * The shopper's sign-in, by better-auth (its Prisma adapter and `phoneNumber` plugin): a code of
 * six digits sent to the phone, valid five minutes, dead after five wrong tries; the first sign-in
 * makes the account. Only what a phone account needs is reachable (SHOPPER_AUTH_PATHS, the route
 * refuses the rest), and where better-auth's defaults are weaker than the shop's rules they are
 * set here: the phone is reduced to its key (lib/phone.ts) before better-auth sees it, codes are
 * limited per phone and per client address in the shop's own atomic counters, and sessions are
 * rows, 30 days sliding, in an httpOnly SameSite=Lax cookie that is `__Secure-` over https.
 */

/** Where better-auth answers (app/api/auth/[...all]/route.ts). */
export const SHOPPER_AUTH_BASE_PATH = "/api/auth";

/**
 * The endpoints a shopper's browser may call, under SHOPPER_AUTH_BASE_PATH: a code, its check
 * (which signs in), the session, and signing out here or everywhere. Every other endpoint
 * better-auth has (e-mail and password, profile updates, social sign-in, password resets) does
 * not exist for this shop, whatever a future version adds.
 */
export const SHOPPER_AUTH_PATHS = [
  "/phone-number/send-otp",
  "/phone-number/verify",
  "/get-session",
  "/sign-out",
  "/revoke-sessions",
] as const;

export const CODE_DIGITS = 6;
export const CODE_SECONDS = 5 * 60;
export const CODE_TRIES = 5;
/** A session lasts 30 days from its last use; its row's expiry moves on at most once a day. */
export const SESSION_SECONDS = 30 * 24 * 3600;
const SESSION_REFRESH_SECONDS = 24 * 3600;

/** What sends a code: the messages module in the app, the outbox in tests. */
export type SendSignInCode = (message: {
  phoneKey: string;
  code: string;
  request: Request | undefined;
}) => Promise<void>;

export interface ShopperAuthOptions {
  db: Database;
  secret: string;
  /** APP_URL: better-auth's base URL and its one trusted origin. */
  appUrl: string;
  sendCode: SendSignInCode;
  limits: SignInCodeLimits;
  rateLimits: Pick<RateLimits, "spendAttempt">;
}

/** better-auth's error for a request the shop refuses, in the shop's refusal words. */
const refused = (status: "BAD_REQUEST" | "TOO_MANY_REQUESTS" | "SERVICE_UNAVAILABLE", code: string, message: string) =>
  new APIError(status, { code, message });

const codeSchema = customerSchema.shape.phone;
const CODE = new RegExp(`^[0-9]{${CODE_DIGITS}}$`);

/**
 * Refuses a body with fields other than `allowed`: better-auth would take them (a verify's
 * `updatePhoneNumber`, fields of the new account), and a hook can add or replace fields, not remove them.
 */
function onlyFields(body: unknown, allowed: readonly string[]): void {
  const extra = Object.keys(body && typeof body === "object" ? body : {}).filter((key) => !allowed.includes(key));
  if (extra.length > 0)
    throw refused("BAD_REQUEST", "invalid_input", `unexpected fields: ${extra.join(", ").slice(0, 200)}`);
}

/** The phone of a request's body as its key, or a refusal naming the field. */
function phoneKeyOf(body: unknown): string {
  const parsed = codeSchema.safeParse((body as { phoneNumber?: unknown } | null)?.phoneNumber);
  if (!parsed.success) throw refused("BAD_REQUEST", "invalid_input", `phoneNumber ${parsed.error.issues[0]?.message}`);
  const key = phoneKey(parsed.data);
  // customerSchema refuses what has no key of its own; this keeps the invariant where it is used.
  if (!isPhoneKey(key)) throw refused("BAD_REQUEST", "invalid_input", "phoneNumber must be a phone number");
  return key;
}

/**
 * The origins better-auth takes a POST from: APP_URL's, and while the shop runs on this machine
 * its other loopback names on the same port (`npm run dev` opened at 127.0.0.1 while APP_URL says
 * localhost), as lib/http/same-origin.ts takes them.
 */
function shopOrigins(appUrl: string): string[] {
  const app = new URL(appUrl);
  if (!isLoopback(app.hostname)) return [app.origin];
  const port = app.port ? `:${app.port}` : "";
  return [app.origin, ...["localhost", "127.0.0.1", "[::1]"].map((host) => `${app.protocol}//${host}${port}`)];
}

export function createShopperAuth(options: ShopperAuthOptions) {
  const { sendCode, limits, rateLimits } = options;
  const secure = new URL(options.appUrl).protocol === "https:";
  return betterAuth({
    appName: "shop",
    baseURL: options.appUrl,
    basePath: SHOPPER_AUTH_BASE_PATH,
    secret: options.secret,
    trustedOrigins: shopOrigins(options.appUrl),
    // better-auth's telemetry is off by default; said here because the shop makes no call it was not asked to.
    telemetry: { enabled: false },
    database: prismaAdapter(options.db, { provider: "postgresql" }),
    user: {
      modelName: "shopper",
      // The shop's own columns: filled by the account's pages with the checkout's rules
      // (lib/accounts/shopper-profile.ts), never from a request to better-auth.
      additionalFields: {
        contactEmail: { type: "string", required: false, input: false },
        nif: { type: "string", required: false, input: false },
      },
    },
    session: {
      modelName: "shopperSession",
      fields: { userId: "shopperId" },
      expiresIn: SESSION_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
      // Every request reads the row: signing out everywhere or deleting the account ends every
      // session at once, which a session cached in a cookie would outlive.
      cookieCache: { enabled: false },
    },
    account: { modelName: "shopperLogin", fields: { userId: "shopperId" } },
    verification: { modelName: "shopperVerification" },
    emailAndPassword: { enabled: false },
    rateLimit: {
      enabled: true,
      // Counted in PostgreSQL (auth_rate_limits), so every instance shares one allowance.
      storage: "database",
      modelName: "authRateLimit",
      window: 60,
      max: 60,
      // The plugin's own rule (10 a minute) made a setting, so a test server can turn it off.
      customRules: {
        "/phone-number/*": limits.requestsPerMinute > 0 ? { window: 60, max: limits.requestsPerMinute } : false,
      },
    },
    advanced: {
      cookiePrefix: "shop",
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure },
      // The client's address as the shop reads it (lib/http/client-address.ts), set by the route
      // over whatever the client sent under that name.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // better-auth skips its origin checks under NODE_ENV=test; the shop checks the same way
      // everywhere, so what the tests see is what production does.
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
    // Nothing better-auth would print reaches the log (a database error's text can hold a
    // request's values, a code among them): an error that is not a refusal is thrown to the
    // route, which logs its kind only and answers 503.
    logger: { disabled: true },
    onAPIError: { throw: true },
    plugins: [
      phoneNumber({
        otpLength: CODE_DIGITS,
        expiresIn: CODE_SECONDS,
        allowedAttempts: CODE_TRIES,
        // The hook below has already reduced the phone to its key; anything else came from elsewhere.
        phoneNumberValidator: (phone) => isPhoneKey(phone),
        sendOTP: ({ phoneNumber: key, code }, context) => sendCode({ phoneKey: key, code, request: context?.request }),
        signUpOnVerification: {
          // better-auth needs a unique e-mail for every account; `.invalid` is never delivered (RFC 2606).
          getTempEmail: (key) => `${key.replace("+", "")}@phone.invalid`,
          getTempName: () => "",
        },
      }),
    ],
    hooks: {
      before: createAuthMiddleware(async (context) => {
        if (context.path === "/phone-number/send-otp") {
          onlyFields(context.body, ["phoneNumber"]);
          const key = phoneKeyOf(context.body);
          const address = context.request?.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
          const verdict = await spendSignInCode(rateLimits, limits, { phoneKey: key, address });
          if (verdict === "unavailable")
            throw refused(
              "SERVICE_UNAVAILABLE",
              "unavailable",
              "codes cannot be sent right now; please try again soon",
            );
          if (verdict !== "allowed")
            throw refused(
              "TOO_MANY_REQUESTS",
              "rate_limited",
              "too many codes were asked for; please wait before asking for another",
            );
          return { context: { body: { phoneNumber: key } } };
        }
        if (context.path === "/phone-number/verify") {
          onlyFields(context.body, ["phoneNumber", "code"]);
          const key = phoneKeyOf(context.body);
          const code = (context.body as { code?: unknown } | null)?.code;
          if (typeof code !== "string" || !CODE.test(code.trim()))
            throw refused("BAD_REQUEST", "invalid_input", `code must be the ${CODE_DIGITS} digits sent to the phone`);
          return { context: { body: { phoneNumber: key, code: code.trim() } } };
        }
      }),
    },
  });
}

export type ShopperAuth = ReturnType<typeof createShopperAuth>;
