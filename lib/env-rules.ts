import type { Problem, Source } from "./env-schema";

/**
 * The rules across the environment's variables, checked on the raw values so that they are
 * reported with every schema problem at once (./env.ts): transport (https unless on this
 * machine), the back office, messages, and Vercel's default APP_URL. Messages name the rule a
 * variable broke, never its value.
 */

/** What the https rules accept over plain http: this machine (localhost, *.localhost, 127.0.0.0/8, [::1]). */
const LOOPBACK_RULE = "unless it points at this machine (localhost, 127.0.0.1, ::1)";

export function isLoopback(hostname: string): boolean {
  // The URL parser has already lowercased the host and normalised IPv4 ("127.1") and IPv6 ("[0::1]") forms.
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === "[::1]"
  );
}

/** The raw value as an http(s) URL; undefined when it is not one (the schema reports that). */
function webUrl(value: string | undefined): URL | undefined {
  const trimmed = value?.trim();
  if (!trimmed || !URL.canParse(trimmed)) return undefined;
  const url = new URL(trimmed);
  return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
}

const overPlainHttpToAnotherMachine = (url: URL | undefined) => url?.protocol === "http:" && !isLoopback(url.hostname);

/**
 * Transport rules, checked on the raw values so they are reported with every other problem:
 * - the service's API and SDK addresses are https:// unless they are on this machine, whatever
 *   the key; with a pk_live_ key they are https:// always (production requires HTTPS, contract 5.3);
 * - Twilio's API address (it carries the auth token and sign-in codes) is https:// unless it is on
 *   this machine (a local stand-in);
 * - with NODE_ENV=production, the shop's own APP_URL is https:// unless it is on this machine
 *   (the e2e server and the benchmarks run the production server on http://127.0.0.1).
 */
export function transportProblems(source: Source): Problem[] {
  const live = source.PAY_PUBLISHABLE_KEY?.trim().startsWith("pk_live_") ?? false;
  const problems: Problem[] = [];
  for (const variable of ["PAY_API_BASE_URL", "PAY_SDK_URL"] as const) {
    const url = webUrl(source[variable]);
    if (live && url?.protocol === "http:") {
      problems.push({ variable, message: "must use https:// with a pk_live_ key (production requires HTTPS)" });
    } else if (overPlainHttpToAnotherMachine(url)) {
      problems.push({ variable, message: `must use https:// ${LOOPBACK_RULE}` });
    }
  }
  if (overPlainHttpToAnotherMachine(webUrl(source.TWILIO_API_BASE_URL))) {
    problems.push({ variable: "TWILIO_API_BASE_URL", message: `must use https:// ${LOOPBACK_RULE}` });
  }
  if (source.NODE_ENV === "production" && overPlainHttpToAnotherMachine(webUrl(source.APP_URL))) {
    problems.push({
      variable: "APP_URL",
      message: `must use https:// in production (NODE_ENV=production) ${LOOPBACK_RULE}`,
    });
  }
  return problems;
}

/** The shortest ADMIN_PASSWORD a production server starts with. */
export const MIN_PRODUCTION_ADMIN_PASSWORD_LENGTH = 12;

/**
 * The back office's rules, on the raw values (empty means unset): a password needs a session
 * secret, and with NODE_ENV=production at least 12 characters. Messages never quote a value.
 */
export function adminProblems(source: Source): Problem[] {
  const password = source.ADMIN_PASSWORD || undefined;
  if (password === undefined) return [];
  const problems: Problem[] = [];
  if (!source.ADMIN_SESSION_SECRET) {
    problems.push({
      variable: "ADMIN_SESSION_SECRET",
      message: "is required when ADMIN_PASSWORD is set (a random string of 32 or more characters)",
    });
  }
  if (source.NODE_ENV === "production" && password.length < MIN_PRODUCTION_ADMIN_PASSWORD_LENGTH) {
    problems.push({
      variable: "ADMIN_PASSWORD",
      message: `must be at least ${MIN_PRODUCTION_ADMIN_PASSWORD_LENGTH} characters in production (NODE_ENV=production)`,
    });
  }
  return problems;
}

/**
 * The messages' rules, on the raw values (empty means unset; a value of spaces is the schema's to
 * refuse, once): MESSAGES_PROVIDER=twilio needs the account's SID and auth token, and a sender
 * for the channel codes go by (MESSAGES_CHANNEL). An unset provider is no problem here, even in
 * production: the shop keeps selling, and only sending a message is refused (lib/messages/).
 * Messages never quote a value.
 */
export function messagesProblems(source: Source): Problem[] {
  if (source.MESSAGES_PROVIDER?.trim() !== "twilio") return [];
  const needed = "is required when MESSAGES_PROVIDER=twilio";
  const problems: Problem[] = [];
  if (!source.TWILIO_ACCOUNT_SID) {
    problems.push({ variable: "TWILIO_ACCOUNT_SID", message: `${needed} (the account's SID, AC…)` });
  }
  if (!source.TWILIO_AUTH_TOKEN) {
    problems.push({ variable: "TWILIO_AUTH_TOKEN", message: `${needed} (the account's auth token)` });
  }
  if (source.MESSAGES_CHANNEL?.trim() === "whatsapp") {
    if (!source.TWILIO_WHATSAPP_FROM) {
      problems.push({
        variable: "TWILIO_WHATSAPP_FROM",
        message: `${needed} and MESSAGES_CHANNEL=whatsapp (the shop's WhatsApp sender)`,
      });
    }
  } else if (!source.TWILIO_SMS_FROM) {
    problems.push({ variable: "TWILIO_SMS_FROM", message: `${needed} (a sender id or number for SMS)` });
  }
  return problems;
}

/**
 * On Vercel (VERCEL=1) an unset APP_URL defaults to https:// plus the production domain
 * Vercel provides (VERCEL_PROJECT_PRODUCTION_URL, a host name without scheme).
 */
export function withVercelAppUrl(source: Source): { source: Source; problems: Problem[] } {
  const domain = source.VERCEL_PROJECT_PRODUCTION_URL?.trim();
  if ((source.APP_URL !== undefined && source.APP_URL !== "") || source.VERCEL !== "1" || !domain) {
    return { source, problems: [] };
  }
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(domain)) {
    const message = "must be a host name without scheme or path (Vercel sets it; it makes the default APP_URL)";
    return { source, problems: [{ variable: "VERCEL_PROJECT_PRODUCTION_URL", message }] };
  }
  return { source: { ...source, APP_URL: `https://${domain}` }, problems: [] };
}
