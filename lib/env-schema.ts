import { z } from "zod";
import { NIF_RULE, nifKind, normaliseNif } from "./nif";
import { MAX_ORDER_LINES, MAX_QUANTITY_INPUT } from "./order-limits";

/**
 * The environment's variables: each one's zod rule and default, on raw values handed in by
 * ./env.ts, which alone reads process.env; the rules across variables are in ./env-rules.ts.
 * Messages name the rule a variable broke, never its value.
 */

export type Source = Record<string, string | undefined>;

export type Problem = { variable: string; message: string };

export const PUBLISHABLE_KEY = /^pk_(test|live)_([A-Za-z0-9][A-Za-z0-9_-]*)$/;

/** A phone number in E.164: `+`, a country code (never starting with 0), 15 digits at most in all. */
const E164 = /^\+[1-9][0-9]{6,14}$/;
/** A Twilio Messaging Service's SID: it picks the sender itself. */
export const MESSAGING_SERVICE_SID = /^MG[0-9a-fA-F]{32}$/;
/** An alphanumeric sender id as Twilio takes one: up to 11 letters, digits or spaces, one letter at least. */
const SENDER_ID = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

const required = (what: string) =>
  z
    .string({ error: "is missing" })
    .trim()
    .min(1, { error: `is empty (${what})` });

const wholeNumber = (unit: string) => z.coerce.number({ error: `must be a whole number of ${unit}` }).int();

const httpUrl = z
  .string({ error: "is missing" })
  .trim()
  .min(1, { error: "is empty" })
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: "must be an absolute http(s) URL",
  })
  .transform((value) => value.replace(/\/+$/, ""));

const databaseShape = {
  DATABASE_URL: z
    .string({ error: "is missing" })
    .trim()
    .regex(/^postgres(ql)?:\/\/\S+$/, { error: "must be a postgres:// or postgresql:// URL" }),
  DATABASE_POOL_MAX: z.coerce.number({ error: "must be a whole number" }).int().min(1).max(100).default(10),
  /** How long a query waits for a free connection of the pool (or for a new one to open) before it fails. */
  DATABASE_ACQUIRE_TIMEOUT_MS: wholeNumber("milliseconds").min(100).max(120_000).default(5_000),
  /** The sessions' lock_timeout: how long a statement waits for a row or table another transaction holds; 0: no limit. */
  DATABASE_LOCK_TIMEOUT_MS: wholeNumber("milliseconds").min(0).max(600_000).default(5_000),
  /** The sessions' statement_timeout: how long one statement may run; 0: no limit. */
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber("milliseconds").min(0).max(3_600_000).default(30_000),
  /**
   * Set to "1" by Vercel on its builds and functions: client addresses come from its headers, and
   * the database pool lets idle connections go sooner (lib/db/client.ts).
   */
  VERCEL: z.string().optional(),
};

const shape = {
  PAY_PUBLISHABLE_KEY: required("expected pk_test_… or pk_live_…").regex(PUBLISHABLE_KEY, {
    error: "must be pk_test_ or pk_live_ followed by the application id",
  }),
  PAY_CLIENT_ID: required("the partner's client id"),
  PAY_CLIENT_SECRET: required("the partner's client secret"),
  // Not trimmed: a stray space is part of the HMAC key, and we warn about it instead of guessing.
  // Only whitespace is no key at all (an empty line in a secret store), so it is refused.
  PAY_WEBHOOK_SECRET: z
    .string({ error: "is missing" })
    .refine((value) => value.trim() !== "", { error: "is empty (the key of the webhook signature)" }),
  PAY_API_BASE_URL: httpUrl,
  PAY_SDK_URL: httpUrl.refine((value) => new URL(value).pathname.includes("/sdks/v1/"), {
    error: "must be the SDK script address under /sdks/v1/",
  }),
  PAY_LANG: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, { error: "must be a language code such as pt or en" })
    .default("pt"),
  /** How long a PEN order may go without news before the status endpoint asks the service (contract 4.2 C). */
  PAY_STATUS_STALE_SECONDS: wholeNumber("seconds").min(1).default(30),
  /**
   * How long the webhook may take before it answers 503 (and the service delivers again), under
   * the 5 s the service waits for an answer (docs/contract-decisions.md).
   */
  PAY_WEBHOOK_DEADLINE_MS: wholeNumber("milliseconds")
    .min(500)
    .max(4_800, { error: "must be at most 4800: the service waits 5 s for an answer" })
    .default(4_000),
  ...databaseShape,
  /** Unset: https://${VERCEL_PROJECT_PRODUCTION_URL} on Vercel, http://localhost:3000 elsewhere. */
  APP_URL: httpUrl.default("http://localhost:3000"),
  // Mail: SMTP when SMTP_URL is set, otherwise the outbox (the emails table) only.
  SMTP_URL: z
    .string()
    .trim()
    .refine((value) => URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol), {
      error: "must be an smtp:// or smtps:// URL",
    })
    .optional(),
  MAIL_FROM: z.string().trim().min(3).default("Loja Kwanza <loja@localhost>"),
  /** The shop's orders mailbox: it receives the confirmation of every paid order. */
  MAIL_TO: z.string().trim().min(3).default("encomendas@localhost"),
  /**
   * Mails about unpaid orders (a bank reference's) one recipient address may receive a day,
   * counted in the database; the rest are skipped. Mails about a paid order always go. 0 turns the cap off.
   */
  SHOPPER_MAILS_PER_ADDRESS_PER_DAY: wholeNumber("mails").min(0).default(5),
  /**
   * Who carries the shop's WhatsApp and SMS texts (sign-in codes; lib/messages/): "twilio", or the
   * "outbox" (the messages table only). Unset: the outbox outside production; with
   * NODE_ENV=production the server starts but sends nothing, and says why (lib/messages/errors.ts).
   */
  MESSAGES_PROVIDER: z
    .string()
    .trim()
    .pipe(z.enum(["outbox", "twilio"], { error: "must be outbox or twilio" }))
    .optional(),
  /** The channel a sign-in code goes by. */
  MESSAGES_CHANNEL: z
    .string()
    .trim()
    .pipe(z.enum(["sms", "whatsapp"], { error: "must be sms or whatsapp" }))
    .default("sms"),
  /** Twilio's account SID and auth token (the token is a secret: never logged). Required with MESSAGES_PROVIDER=twilio. */
  TWILIO_ACCOUNT_SID: z
    .string()
    .trim()
    .regex(/^AC[0-9a-fA-F]{32}$/, { error: "must be AC followed by 32 hexadecimal digits (the account's SID)" })
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(1, { error: "is empty (the account's auth token)" }).optional(),
  /**
   * Who an SMS comes from: a number in international form, an alphanumeric sender id (up to 11
   * letters, digits or spaces, one letter at least, as Twilio allows them) or a Messaging
   * Service's SID (MG…).
   */
  TWILIO_SMS_FROM: z
    .string()
    .trim()
    .transform((value) => (value.startsWith("+") ? value.replace(/[\s-]/g, "") : value))
    .refine((value) => E164.test(value) || MESSAGING_SERVICE_SID.test(value) || SENDER_ID.test(value), {
      error:
        "must be a number in international form (+…), an alphanumeric sender id (up to 11 letters, digits or spaces, one letter at least) or a Messaging Service SID (MG…)",
    })
    .optional(),
  /** The shop's WhatsApp sender on Twilio, in international form ("whatsapp:" before it or not). */
  TWILIO_WHATSAPP_FROM: z
    .string()
    .transform((value) =>
      value
        .trim()
        .replace(/^whatsapp:/i, "")
        .replace(/[\s-]/g, ""),
    )
    .refine((value) => E164.test(value), {
      error: "must be a number in international form, its country code first (+244 …)",
    })
    .optional(),
  /** Twilio's API address; unset: the SDK's own (https://api.twilio.com). For a stand-in, or a proxy. */
  TWILIO_API_BASE_URL: httpUrl.optional(),
  /** Protects /api/cron/* (Vercel Cron sends it as `Authorization: Bearer …`) and /api/health's details. Unset: the cron routes refuse. */
  CRON_SECRET: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  /** How long an unpaid order keeps its units reserved, from its creation (docs/contract-decisions.md). */
  ORDER_HOLD_SECONDS: wholeNumber("seconds").min(5, { error: "must be at least 5 seconds" }).default(1800),
  /** Products with this many units or fewer say "Só restam N" in the catalogue; 0 turns the label off. */
  LOW_STOCK_THRESHOLD: wholeNumber("units").min(0).max(1000).default(5),
  /** Open (PEN, hold not expired) orders one shopper cookie may have at once; 0 turns the cap off. */
  MAX_OPEN_ORDERS_PER_SHOPPER: wholeNumber("orders").min(0).default(3),
  /**
   * Open orders from one client address (an IPv6 /64) at once, whatever cookies it sends; 0 turns
   * the cap off. Shoppers behind one carrier address share it.
   */
  MAX_OPEN_ORDERS_PER_ADDRESS: wholeNumber("orders").min(0).default(10),
  /**
   * Orders holding a bank reference (their units kept for the reference's day) one client address,
   * and one phone, may have at once; 0 turns the cap off.
   */
  MAX_REFERENCE_HOLDS: wholeNumber("orders").min(0).default(3),
  /** Units of one variant a cart line and an order may hold. */
  MAX_UNITS_PER_LINE: wholeNumber("units").min(1).max(MAX_QUANTITY_INPUT).default(10),
  /** Units across all the lines of one cart or order. */
  MAX_UNITS_PER_ORDER: wholeNumber("units")
    .min(1)
    .max(MAX_QUANTITY_INPUT * MAX_ORDER_LINES)
    .default(50),
  /** POST /api/pay/create-order per client address per minute; 0 turns the limit off. */
  RATE_LIMIT_CREATE_ORDER_PER_MINUTE: wholeNumber("requests").min(0).default(10),
  /** Status checks forced with ?refresh=1, per client address per minute; 0 turns the limit off. */
  RATE_LIMIT_STATUS_REFRESH_PER_MINUTE: wholeNumber("requests").min(0).default(30),
  /** Back-office sign-in attempts (POST /api/admin/session) per client address per minute; 0 turns the limit off. */
  RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE: wholeNumber("requests").min(0).default(5),
  /**
   * Back-office sign-in attempts per minute from all addresses together, against a guess spread
   * over many addresses; 0 turns the cap off.
   */
  RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE: wholeNumber("requests").min(0).default(30),
  /** Promo code checks before paying (POST /api/cart/promo) per client address per minute; 0 turns the limit off. */
  RATE_LIMIT_PROMO_CHECK_PER_MINUTE: wholeNumber("requests").min(0).default(20),
  /**
   * The back office's password (/admin). Unset: the back office is off. Not trimmed: every
   * character is part of the password. Its length rule in production is in adminProblems().
   */
  ADMIN_PASSWORD: z.string().optional(),
  /**
   * The e-mail of the owner the back office makes from ADMIN_PASSWORD when it has no owner yet
   * (lib/admin/owner.ts). `.example` is never delivered (RFC 2606): the owner may keep it, or
   * change it at /admin/account.
   */
  ADMIN_EMAIL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "must be an e-mail address" }))
    .default("owner@shop.example"),
  /**
   * The key that seals the back office's session cookie, apart from the password so a stolen
   * cookie never helps to guess the password offline. Required with ADMIN_PASSWORD.
   */
  ADMIN_SESSION_SECRET: z
    .string()
    .refine((value) => value.trim().length >= 32, { error: "must be at least 32 characters (a random string)" })
    .optional(),
  /**
   * The key that signs shoppers' session cookies (better-auth's own setting name). Required for
   * accounts in production; unset there, the shop sells as before and "A minha conta" says that
   * accounts are off. Development and tests use a fixed key of their own.
   */
  BETTER_AUTH_SECRET: z
    .string()
    .refine((value) => value.trim().length >= 32, { error: "must be at least 32 characters (a random string)" })
    .optional(),
  /** Sign-in codes sent to one phone per hour, from any addresses; 0 turns the limit off. */
  SIGN_IN_CODES_PER_PHONE_PER_HOUR: wholeNumber("codes").min(0).default(5),
  /** Sign-in codes requested from one client address per hour, for any phones; 0 turns the limit off. */
  // Generous: Angola's mobile networks put many phones behind one address (carrier-grade NAT).
  SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: wholeNumber("codes").min(0).default(60),
  /** Requests to the sign-in's code endpoints per client address per minute (better-auth's limiter); 0 turns it off. */
  RATE_LIMIT_SIGN_IN_PER_MINUTE: wholeNumber("requests").min(0).default(30),
  /**
   * Self-hosted behind reverse proxies: how many of them append to X-Forwarded-For (1 for one
   * nginx or load balancer). 0 (the default): forwarded headers are ignored, the TCP peer counts.
   */
  TRUST_PROXY: wholeNumber("proxies").min(0).max(10).default(0),
  /**
   * The shop's WhatsApp number in international form ("+244 923 456 789"): its digits, as wa.me
   * wants them. Unset or empty: the shop shows no WhatsApp links.
   */
  SHOP_WHATSAPP: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, ""))
    // No trunk 0 and no 00: the country code comes first, as wa.me wants it.
    .refine((value) => /^\+?[1-9][0-9]{7,14}$/.test(value), {
      error: "must be a phone number in international form, its country code first (8 to 15 digits, e.g. +244 …)",
    })
    .transform((value) => value.replace(/^\+/, ""))
    .optional(),
  /**
   * What a paid order's receipt says of the seller (docs/configuration.md): the shop's legal name
   * (the company or trader the NIF belongs to), its NIF and its address. Each unset or empty: the
   * receipt names the shop as the header does and leaves out what is missing.
   */
  SHOP_LEGAL_NAME: z
    .string()
    .trim()
    .min(1, { error: "is empty" })
    .max(200, { error: "is longer than 200 characters" })
    .optional(),
  /** The same two forms as a buyer's NIF at checkout (lib/nif.ts), written with or without spaces. */
  SHOP_NIF: z
    .string()
    .transform(normaliseNif)
    .refine((nif) => nifKind(nif) !== null, { error: NIF_RULE })
    .optional(),
  /** One line, or several separated by new lines (each printed on its own). */
  SHOP_ADDRESS: z
    .string()
    .trim()
    .min(1, { error: "is empty" })
    .max(300, { error: "is longer than 300 characters" })
    .optional(),
  /** Vercel's production domain (no scheme): on Vercel, an unset APP_URL is https:// plus this. */
  VERCEL_PROJECT_PRODUCTION_URL: z.string().trim().optional(),
};

export const schema = z.object(shape);

export const databaseSchema = z.object(databaseShape);

/** Variables with a default, for which an empty value means unset (.env.example leaves them empty). */
export const DEFAULTED = new Set([
  "PAY_LANG",
  "PAY_STATUS_STALE_SECONDS",
  "PAY_WEBHOOK_DEADLINE_MS",
  "DATABASE_POOL_MAX",
  "DATABASE_ACQUIRE_TIMEOUT_MS",
  "DATABASE_LOCK_TIMEOUT_MS",
  "DATABASE_STATEMENT_TIMEOUT_MS",
  "APP_URL",
  "SMTP_URL",
  "MAIL_FROM",
  "MAIL_TO",
  "SHOPPER_MAILS_PER_ADDRESS_PER_DAY",
  "MESSAGES_PROVIDER",
  "MESSAGES_CHANNEL",
  "TWILIO_ACCOUNT_SID",
  "TWILIO_AUTH_TOKEN",
  "TWILIO_SMS_FROM",
  "TWILIO_WHATSAPP_FROM",
  "TWILIO_API_BASE_URL",
  "CRON_SECRET",
  "ORDER_HOLD_SECONDS",
  "LOW_STOCK_THRESHOLD",
  "MAX_OPEN_ORDERS_PER_SHOPPER",
  "MAX_OPEN_ORDERS_PER_ADDRESS",
  "MAX_REFERENCE_HOLDS",
  "MAX_UNITS_PER_LINE",
  "MAX_UNITS_PER_ORDER",
  "RATE_LIMIT_CREATE_ORDER_PER_MINUTE",
  "RATE_LIMIT_STATUS_REFRESH_PER_MINUTE",
  "RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE",
  "RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE",
  "RATE_LIMIT_PROMO_CHECK_PER_MINUTE",
  "ADMIN_PASSWORD",
  "ADMIN_EMAIL",
  "ADMIN_SESSION_SECRET",
  "BETTER_AUTH_SECRET",
  "SIGN_IN_CODES_PER_PHONE_PER_HOUR",
  "SIGN_IN_CODES_PER_ADDRESS_PER_HOUR",
  "RATE_LIMIT_SIGN_IN_PER_MINUTE",
  "TRUST_PROXY",
  "SHOP_WHATSAPP",
  "SHOP_LEGAL_NAME",
  "SHOP_NIF",
  "SHOP_ADDRESS",
  "VERCEL",
  "VERCEL_PROJECT_PRODUCTION_URL",
]);
