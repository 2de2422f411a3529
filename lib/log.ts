import { createHash } from "node:crypto";

/**
 * Structured one-line logs. Callers pass explicit fields (ids, statuses, durations), never
 * headers or bodies: that is how secrets and tokens stay out of the logs. Nor do shoppers'
 * personal data reach them, whatever a caller passes ({@link consoleLogger}).
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;
export type Logger = (level: "info" | "warn" | "error", event: string, fields?: LogFields) => void;

/** An order id as the shop issues it (`order_` + a UUID), anywhere in a text. */
const ORDER_ID = /order_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Anything shaped like an e-mail address. */
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
/** A field that holds a phone number, by its name (a phone has no shape that sets it apart from an amount). */
const PHONE_FIELD = /phone|telefone/i;

/**
 * `order#` + the first 12 hex digits of the order id's SHA-256 (lower case). A UUID cannot be
 * found back from it; whoever has the id computes it (`printf order_… | sha256sum`) to find the
 * order's lines. scripts/lib/logged-path.mjs writes the same for the server's log.
 */
export function orderLogRef(orderId: string): string {
  return `order#${createHash("sha256").update(orderId.toLowerCase()).digest("hex").slice(0, 12)}`;
}

/** `text` with every order id as its hash and every e-mail address as `[e-mail]`. */
export function redactText(text: string): string {
  return text.replace(ORDER_ID, orderLogRef).replace(EMAIL, "[e-mail]");
}

function redactFields(fields: LogFields): LogFields {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => {
      if (typeof value !== "string") return [key, value];
      return [key, PHONE_FIELD.test(key) ? "[phone]" : redactText(value)];
    }),
  );
}

/**
 * One JSON line per event, its fields redacted: an order id (the key to its order's page) as
 * {@link orderLogRef}, a short hash that still ties one order's lines together, an e-mail address
 * as `[e-mail]` and a phone field as `[phone]` (docs/self-hosting.md).
 */
export const consoleLogger: Logger = (level, event, fields = {}) => {
  const line = JSON.stringify({ level, event, ...redactFields(fields) });
  if (level === "info") console.log(line);
  else console[level](line);
};

/** What a log line may say about an unexpected error: its class, never its message (which can carry data). */
export const errorKind = (error: unknown) => (error instanceof Error ? error.name : "unknown");

/**
 * A logger for lines anyone can cause at will (a forged webhook, sign-in attempts past the
 * limit): at most `perMinute` lines a minute for each event and `reason`, so a flood of requests
 * does not become a flood of log lines (nor a log platform's bill). What it holds back is counted,
 * and the next line let through says how many (`suppressed`). Per instance, in memory: a window
 * is one process's minute, which is what a flood of one process's requests needs.
 */
export function throttledLogger(log: Logger, options: { perMinute?: number; now?: () => number } = {}): Logger {
  const { perMinute = 60, now = () => Date.now() } = options;
  const windows = new Map<string, { start: number; logged: number; suppressed: number }>();
  return (level, event, fields = {}) => {
    const key = `${event}\u0000${String(fields.reason ?? "")}`;
    const at = now();
    let window = windows.get(key);
    if (!window || at - window.start >= 60_000) {
      // Events and reasons are a fixed vocabulary; the bound only guards against a caller's mistake.
      if (!window && windows.size >= 256) windows.clear();
      window = { start: at, logged: 0, suppressed: window?.suppressed ?? 0 };
      windows.set(key, window);
    }
    if (window.logged >= perMinute) {
      window.suppressed += 1;
      return;
    }
    window.logged += 1;
    const suppressed = window.suppressed;
    window.suppressed = 0;
    log(level, event, suppressed > 0 ? { ...fields, suppressed } : fields);
  };
}
