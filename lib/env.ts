import "server-only";
import type { z } from "zod";
import { adminProblems, messagesProblems, transportProblems, withVercelAppUrl } from "./env-rules";
import {
  databaseSchema,
  DEFAULTED,
  MESSAGING_SERVICE_SID,
  PUBLISHABLE_KEY,
  schema,
  type Problem,
  type Source,
} from "./env-schema";
import type { UnitLimits } from "./order-limits";

/**
 * The one module that reads the environment. Everything else asks `getEnv()` (or
 * `getDatabaseEnv()`): the validated settings as the shop uses them, grouped by area. The
 * variables' rules are in ./env-schema.ts, the rules across them in ./env-rules.ts. Error messages name the variable and the rule it
 * broke, never its value, because several of these variables are secrets.
 */

export { isLoopback, MIN_PRODUCTION_ADMIN_PASSWORD_LENGTH } from "./env-rules";

export type PayMode = "sandbox" | "production";

export interface Env {
  pay: {
    publishableKey: string;
    /** The publishable key without its pk_test_/pk_live_ prefix (contract 2.1). */
    applicationUUID: string;
    mode: PayMode;
    clientId: string;
    clientSecret: string;
    webhookSecret: string;
    apiBaseUrl: string;
    sdkUrl: string;
    lang: string;
    statusStaleSeconds: number;
    /** Milliseconds from a delivery's arrival to the webhook's 503 when the database has not answered. */
    webhookDeadlineMs: number;
  };
  mail: {
    /** Unset: mail goes to the outbox only (development and tests). */
    smtpUrl?: string;
    from: string;
    to: string;
    /** Mails about unpaid orders per recipient address per day (lib/mail/recipient-limit.ts); 0: no cap. */
    shopperMailsPerAddressPerDay: number;
  };
  messages: {
    /**
     * Who carries WhatsApp and SMS texts (lib/messages/). null: NODE_ENV=production without
     * MESSAGES_PROVIDER, and sending is refused (the rest of the shop runs).
     */
    provider: "outbox" | "twilio" | null;
    /** The channel a sign-in code goes by (MESSAGES_CHANNEL). */
    channel: "sms" | "whatsapp";
    /** With MESSAGES_PROVIDER=twilio: its settings, checked at start (the sender of the default channel is set). */
    twilio: {
      accountSid: string;
      /** A secret: never logged. */
      authToken: string;
      /** An SMS's sender: a number (+…) or an alphanumeric sender id; null: a Messaging Service picks it, or none. */
      smsFrom: string | null;
      /** TWILIO_SMS_FROM when it is a Messaging Service's SID (MG…). */
      messagingServiceSid: string | null;
      /** The WhatsApp sender's number (+…), without "whatsapp:"; null: no WhatsApp. */
      whatsappFrom: string | null;
      /** TWILIO_API_BASE_URL; null: the SDK's own address. */
      apiBaseUrl: string | null;
    } | null;
  };
  cronSecret?: string;
  catalog: {
    /** At or below this many units a product shows "Só restam N" (0: never). */
    lowStockThreshold: number;
  };
  orders: {
    /** Seconds an unpaid order holds its stock, from creation. */
    holdSeconds: number;
    /** 0: no cap. */
    maxOpenPerShopper: number;
    /** Per client address (lib/http/client-address.ts' rateLimitKeyOf); 0: no cap. */
    maxOpenPerAddress: number;
    /** Orders holding a bank reference, per client address and per phone; 0: no cap. */
    maxReferenceHolds: number;
    /** MAX_UNITS_PER_LINE and MAX_UNITS_PER_ORDER, for carts and orders alike. */
    units: UnitLimits;
  };
  /** Requests per client address per minute; 0: no limit. */
  rateLimits: {
    createOrderPerMinute: number;
    statusRefreshPerMinute: number;
    adminSignInPerMinute: number;
    /** All addresses together. */
    adminSignInShopPerMinute: number;
    promoCheckPerMinute: number;
  };
  /** The back office (/admin); undefined when ADMIN_PASSWORD is unset, and the back office is off. */
  admin?: { password: string; sessionSecret: string; ownerEmail: string };
  /**
   * Shoppers' accounts (lib/accounts/): undefined in production without BETTER_AUTH_SECRET, and
   * accounts are off.
   */
  accounts?: {
    secret: string;
    /** Sign-in codes per phone per hour, from any addresses; 0: no limit. */
    codesPerPhonePerHour: number;
    /** Sign-in codes per client address per hour; 0: no limit. */
    codesPerAddressPerHour: number;
    /** Requests to the code endpoints per client address per minute; 0: no limit. */
    requestsPerMinute: number;
  };
  shop: {
    /** SHOP_WHATSAPP's digits (country code first, no +), for wa.me links; null: no links. */
    whatsapp: string | null;
    /** SHOP_LEGAL_NAME, SHOP_NIF (normalised) and SHOP_ADDRESS: the seller on a receipt; null when unset. */
    legalName: string | null;
    nif: string | null;
    address: string | null;
  };
  /** Where the client's address comes from (lib/http/client-address.ts). */
  clientAddress: { onVercel: boolean; trustedProxies: number };
  databaseUrl: string;
  databasePoolMax: number;
  appUrl: string;
  /** Human-readable notes about a configuration that works but looks wrong. */
  warnings: string[];
}

export class EnvError extends Error {
  constructor(readonly problems: Problem[]) {
    super(
      "Invalid configuration:\n" +
        problems.map((p) => `  - ${p.variable} ${p.message}`).join("\n") +
        "\nSee .env.example for every variable and what it holds.",
    );
    this.name = "EnvError";
  }
}

function validate<T extends z.ZodObject>(schema: T, source: Source, extraProblems: Problem[] = []): z.output<T> {
  // An empty value means "unset" for variables that have defaults (.env.example leaves them empty).
  const input = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, source[key] === "" && DEFAULTED.has(key) ? undefined : source[key]]),
  );
  const result = schema.safeParse(input);
  const problems = [
    ...(result.error?.issues ?? []).map((issue) => ({
      variable: String(issue.path[0] ?? "environment"),
      message: issue.message,
    })),
    ...extraProblems,
  ];
  if (problems.length > 0 || !result.success) throw new EnvError(problems);
  return result.data;
}

/**
 * Pure: validates `raw` (usually process.env, NODE_ENV included, so the production rules are
 * testable). Throws EnvError naming every bad variable.
 */
export function parseEnv(raw: Source): Env {
  const { source, problems } = withVercelAppUrl(raw);
  const e = validate(schema, source, [
    ...problems,
    ...transportProblems(source),
    ...adminProblems(source),
    ...messagesProblems(source),
  ]);
  const production = source.NODE_ENV === "production";
  const [, prefix, applicationUUID] = PUBLISHABLE_KEY.exec(e.PAY_PUBLISHABLE_KEY)!;
  const warnings: string[] = [];
  if (e.PAY_WEBHOOK_SECRET !== e.PAY_WEBHOOK_SECRET.trim()) {
    warnings.push(
      "PAY_WEBHOOK_SECRET starts or ends with whitespace; it is used as is, so signatures will only verify if the service's secret has the same whitespace.",
    );
  }
  if (production && !e.BETTER_AUTH_SECRET) {
    warnings.push(
      "BETTER_AUTH_SECRET is unset: shoppers' accounts (sign-in by phone) are off until it is set to a random string of 32 or more characters.",
    );
  }
  const messagesProvider = e.MESSAGES_PROVIDER ?? (production ? null : "outbox");
  if (production && messagesProvider === null) {
    warnings.push(
      "MESSAGES_PROVIDER is unset: no WhatsApp or SMS is sent, so shoppers get no sign-in codes. Set it to twilio (with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and a sender), or to outbox for staging.",
    );
  } else if (production && messagesProvider === "outbox") {
    warnings.push(
      "MESSAGES_PROVIDER=outbox: WhatsApp and SMS texts are only written to the messages table; no shopper receives them.",
    );
  }
  const smsFrom = e.TWILIO_SMS_FROM ?? null;
  const viaService = smsFrom !== null && MESSAGING_SERVICE_SID.test(smsFrom);
  return {
    pay: {
      publishableKey: e.PAY_PUBLISHABLE_KEY,
      applicationUUID: applicationUUID!,
      mode: prefix === "live" ? "production" : "sandbox",
      clientId: e.PAY_CLIENT_ID,
      clientSecret: e.PAY_CLIENT_SECRET,
      webhookSecret: e.PAY_WEBHOOK_SECRET,
      apiBaseUrl: e.PAY_API_BASE_URL,
      sdkUrl: e.PAY_SDK_URL,
      lang: e.PAY_LANG,
      statusStaleSeconds: e.PAY_STATUS_STALE_SECONDS,
      webhookDeadlineMs: e.PAY_WEBHOOK_DEADLINE_MS,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      to: e.MAIL_TO,
      shopperMailsPerAddressPerDay: e.SHOPPER_MAILS_PER_ADDRESS_PER_DAY,
    },
    messages: {
      provider: messagesProvider,
      channel: e.MESSAGES_CHANNEL,
      twilio:
        messagesProvider === "twilio" && e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN
          ? {
              accountSid: e.TWILIO_ACCOUNT_SID,
              authToken: e.TWILIO_AUTH_TOKEN,
              smsFrom: viaService ? null : smsFrom,
              messagingServiceSid: viaService ? smsFrom : null,
              whatsappFrom: e.TWILIO_WHATSAPP_FROM ?? null,
              apiBaseUrl: e.TWILIO_API_BASE_URL ?? null,
            }
          : null,
    },
    cronSecret: e.CRON_SECRET,
    catalog: { lowStockThreshold: e.LOW_STOCK_THRESHOLD },
    orders: {
      holdSeconds: e.ORDER_HOLD_SECONDS,
      maxOpenPerShopper: e.MAX_OPEN_ORDERS_PER_SHOPPER,
      maxOpenPerAddress: e.MAX_OPEN_ORDERS_PER_ADDRESS,
      maxReferenceHolds: e.MAX_REFERENCE_HOLDS,
      units: { perLine: e.MAX_UNITS_PER_LINE, perOrder: e.MAX_UNITS_PER_ORDER },
    },
    rateLimits: {
      createOrderPerMinute: e.RATE_LIMIT_CREATE_ORDER_PER_MINUTE,
      statusRefreshPerMinute: e.RATE_LIMIT_STATUS_REFRESH_PER_MINUTE,
      adminSignInPerMinute: e.RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE,
      adminSignInShopPerMinute: e.RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE,
      promoCheckPerMinute: e.RATE_LIMIT_PROMO_CHECK_PER_MINUTE,
    },
    ...(e.ADMIN_PASSWORD && e.ADMIN_SESSION_SECRET
      ? { admin: { password: e.ADMIN_PASSWORD, sessionSecret: e.ADMIN_SESSION_SECRET, ownerEmail: e.ADMIN_EMAIL } }
      : {}),
    ...accountsOf(e, source),
    shop: {
      whatsapp: e.SHOP_WHATSAPP ?? null,
      legalName: e.SHOP_LEGAL_NAME ?? null,
      nif: e.SHOP_NIF ?? null,
      address: e.SHOP_ADDRESS ?? null,
    },
    clientAddress: { onVercel: e.VERCEL === "1", trustedProxies: e.TRUST_PROXY },
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    appUrl: e.APP_URL,
    warnings,
  };
}

/**
 * Signs development's and tests' session cookies when BETTER_AUTH_SECRET is unset: public, so
 * never used by a production server (NODE_ENV=production), which needs its own.
 */
export const DEVELOPMENT_AUTH_SECRET = "development-only-shopper-sessions-key-not-secret";

function accountsOf(e: z.output<typeof schema>, source: Source): Pick<Env, "accounts"> {
  const secret = e.BETTER_AUTH_SECRET ?? (source.NODE_ENV === "production" ? undefined : DEVELOPMENT_AUTH_SECRET);
  if (!secret) return {};
  return {
    accounts: {
      secret,
      codesPerPhonePerHour: e.SIGN_IN_CODES_PER_PHONE_PER_HOUR,
      codesPerAddressPerHour: e.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR,
      requestsPerMinute: e.RATE_LIMIT_SIGN_IN_PER_MINUTE,
    },
  };
}

let cached: Env | undefined;

/** The validated environment of this process, parsed once. */
export function getEnv(): Env {
  if (!cached) {
    cached = parseEnv(process.env);
    for (const warning of cached.warnings) console.warn(`[env] ${warning}`);
  }
  return cached;
}

export interface DatabaseEnv {
  databaseUrl: string;
  databasePoolMax: number;
  /** Milliseconds a query waits for a connection of the pool. */
  acquireTimeoutMs: number;
  /** The sessions' lock_timeout and statement_timeout, in milliseconds; 0: none. */
  lockTimeoutMs: number;
  statementTimeoutMs: number;
  /** VERCEL=1: serverless functions, which Vercel suspends between requests. */
  onVercel: boolean;
}

/** Only the database settings: for the Prisma client and its pool, which need no PAY_ keys. */
export function getDatabaseEnv(source: Source = process.env): DatabaseEnv {
  const e = validate(databaseSchema, source);
  return {
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    acquireTimeoutMs: e.DATABASE_ACQUIRE_TIMEOUT_MS,
    lockTimeoutMs: e.DATABASE_LOCK_TIMEOUT_MS,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    onVercel: e.VERCEL === "1",
  };
}

/** NODE_ENV, set by Next.js (and by Vitest to "test"): decides dev-only behaviour such as query logs. */
export function nodeEnv(): "development" | "production" | "test" {
  const value = process.env.NODE_ENV;
  return value === "production" || value === "test" ? value : "development";
}
