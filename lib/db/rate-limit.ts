import "server-only";
import { createHash } from "node:crypto";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { dbPool } from "./client";
import { consoleLogger, errorKind, type Logger } from "../log";

/**
 * Fixed-window request limits (so many per minute per key: a name such as "create-order" and a
 * client address) and attempts per key (so many failures per window, then locked), in
 * PostgreSQL's `rate_limits` table, so every instance of the app counts against the same
 * allowance: a limit kept in one process's memory would give each serverless instance an
 * allowance of its own. Counting is rate-limiter-flexible's (`RateLimiterPostgres`), a well-kept
 * library rather than SQL of our own to get subtly wrong.
 */

export type RateLimitVerdict =
  | { ok: true }
  | {
      ok: false;
      /** Over the limit, or (a `failClosed` limit only) the counters could not be reached. */
      reason: "limited" | "unavailable";
      retryAfterSeconds: number;
    };

export interface RateLimit {
  /** Requests allowed per key per minute; 0 (or less) turns the limit off. */
  pointsPerMinute: number;
  /**
   * Refuse, rather than let through, when the counters cannot be reached. Limits fail open by
   * default: they protect the shop and the service from floods, they are not what keeps an order
   * correct, and refusing every shopper because a counter is unreachable would turn a database
   * hiccup into an outage of its own. A limit that *is* the protection (the back office's
   * sign-in: without it, a password can be guessed as fast as requests go) fails closed.
   */
  failClosed?: boolean;
}

/**
 * So many attempts per key within a window (sign-in codes sent to one phone, mails to one
 * address a day), after which the key is locked until the window ends; `failures` 0 (or less)
 * turns it off. An attempt is spent before it is answered, and one that succeeded may be given
 * back, so what is counted is the failures (a mail is never given back: every one counts).
 * Spending throws when the counters cannot be reached: the caller answers "unavailable" or
 * retries later, never lets an attempt through uncounted.
 */
export interface FailureLimit {
  failures: number;
  windowSeconds: number;
}

/**
 * One attempt spent under a {@link FailureLimit}: refused (the key is locked; nothing may be
 * tried), or allowed, with the means to give the attempt back once it turned out not to be a
 * failure.
 */
export type SpentAttempt = { allowed: false } | { allowed: true; giveBack(): Promise<void> };

/** What the limiter needs of a `pg` Pool (the app's: `dbPool()`). */
export interface RateLimitPool {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

const WINDOW_SECONDS = 60;
/** The primary key of rate_limits is varchar(255); longer keys are stored as their hash. */
const MAX_KEY_LENGTH = 255;
const ALLOWED: RateLimitVerdict = { ok: true };
/** How long a fail-closed limit asks a client to wait while its counters cannot be reached. */
export const UNAVAILABLE_RETRY_SECONDS = 30;
/**
 * An attempt is given back only while its window has at least this long to run: a point given
 * back after its window ended would be the next window's, one attempt more than its limit.
 * Covers the give-back's own round trip and the clocks of instances that disagree a little.
 */
const GIVE_BACK_MARGIN_MS = 5_000;
const NO_GIVE_BACK = async () => {};

/** What a limit answers when its counters cannot be reached: a warning, then through or refused. */
function unavailable(log: Logger, name: string, limit: RateLimit, error: unknown): RateLimitVerdict {
  log("warn", "rate_limit.unavailable", {
    limit: name,
    error: errorKind(error),
    ...(limit.failClosed ? { failClosed: true } : {}),
  });
  return limit.failClosed
    ? { ok: false, reason: "unavailable", retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS }
    : ALLOWED;
}

/**
 * Limits counted through `pool`. One per app instance is enough (`consumeRateLimit` keeps one
 * per pool); tests make several over separate pools to play separate instances.
 */
export function createRateLimits(pool: RateLimitPool, options: { log?: Logger } = {}) {
  const log = options.log ?? consoleLogger;
  // rate-limiter-flexible names its prepared statements; we send its queries unnamed, as Prisma's
  // adapter sends ours: a named statement belongs to one server session, which breaks behind a
  // transaction-mode pooler (PgBouncer, Supavisor: the next transaction may get another session,
  // with or without that name) and on the embedded PGlite, whose connections share one session
  // ("prepared statement … already exists" from the second connection).
  const store = {
    query: (query: { text: string; values?: unknown[] }) => pool.query(query.text, query.values),
  };
  const limiters = new Map<string, RateLimiterPostgres>();

  function limiterFor(name: string, points: number, windowSeconds: number, blockInMemory: boolean) {
    const cacheKey = `${name}\u0000${points}\u0000${windowSeconds}\u0000${blockInMemory}`;
    let limiter = limiters.get(cacheKey);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: store,
        storeType: "pool",
        tableName: "rate_limits",
        // Created by a migration (prisma/migrations/…_holds_attention_limits), never at run time.
        tableCreated: true,
        keyPrefix: name,
        points,
        duration: windowSeconds,
        // Once a key is over its per-minute limit, this instance refuses it from memory until
        // the window ends, so a flood from one address costs one write per instance per window,
        // not one per request. Not for attempts: a point given back must count at once, and
        // every instance (and a window ended early by an operator) must answer alike.
        ...(blockInMemory ? { inMemoryBlockOnConsumed: points + 1 } : {}),
      });
      // Its clean-up of expired rows runs every 5 minutes on an unref'd timer: it never keeps
      // a script (the worker, reconcile) from exiting.
      limiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  return {
    /** Spends one request of `key`'s allowance under the limit `name`. */
    async consume(name: string, key: string, limit: RateLimit): Promise<RateLimitVerdict> {
      if (!(limit.pointsPerMinute > 0)) return ALLOWED;
      try {
        await limiterFor(name, limit.pointsPerMinute, WINDOW_SECONDS, true).consume(storedKey(name, key));
        return ALLOWED;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes)
          return {
            ok: false,
            reason: "limited",
            retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)),
          };
        return unavailable(log, name, limit, refusal);
      }
    },

    /**
     * Spends one attempt of `key` under the limit `name`, in one atomic step with the check
     * (rate-limiter-flexible's upsert): of any number of concurrent attempts, across instances,
     * at most `limit.failures` are allowed per window, so only an allowed attempt may be tried.
     * A refused attempt counts too (a locked key stays locked; its window is unchanged). Throws
     * when the counters cannot be reached.
     */
    async spendAttempt(name: string, key: string, limit: FailureLimit): Promise<SpentAttempt> {
      if (!(limit.failures > 0)) return { allowed: true, giveBack: NO_GIVE_BACK };
      const limiter = limiterFor(name, limit.failures, limit.windowSeconds, false);
      const stored = storedKey(name, key);
      let windowEndsAt: number;
      try {
        const spent = await limiter.consume(stored);
        windowEndsAt = Date.now() + spent.msBeforeNext;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return { allowed: false };
        throw refusal;
      }
      return {
        allowed: true,
        // Gives back this attempt's own point, never more, so the key's count never falls below
        // its failures in the window: a success cannot wipe out a burst of failures, however many
        // succeed. Only in the window the point was spent in: given back after it ended, the
        // point would be the next window's, an attempt more than its limit (someone holding one
        // right answer could time successes at each window's end to get that). So within
        // GIVE_BACK_MARGIN_MS of the end the point stays spent (the safe side); should the window
        // have ended anyway (an operator ended it early), the give-back started the next window
        // at -1, and the point is taken again at once. A give-back that cannot reach the
        // counters leaves the point spent.
        async giveBack() {
          if (Date.now() + GIVE_BACK_MARGIN_MS >= windowEndsAt) return;
          try {
            const given = await limiter.reward(stored, 1);
            if (given.consumedPoints < 0) await limiter.penalty(stored, 1);
          } catch (error) {
            log("warn", "rate_limit.unavailable", { limit: name, error: errorKind(error) });
          }
        },
      };
    },
  };
}

/** `key`, or its SHA-256 when `${name}:${key}` would not fit the table's key column. */
function storedKey(name: string, key: string): string {
  if (name.length + 1 + key.length <= MAX_KEY_LENGTH) return key;
  return `sha256-${createHash("sha256").update(key).digest("hex")}`;
}

export type RateLimits = ReturnType<typeof createRateLimits>;
const perPool = new WeakMap<RateLimitPool, RateLimits>();

/** The limits of the app's database (`dbPool()`), one set per pool. */
export function appRateLimits(): RateLimits {
  const pool = dbPool();
  let limits = perPool.get(pool);
  if (!limits) perPool.set(pool, (limits = createRateLimits(pool)));
  return limits;
}

/**
 * Spends one request of `key`'s allowance under the limit `name` (stored as `name:key`),
 * counted in the app's database. `{ ok: false }` carries the seconds until the window ends
 * (at least 1), or until it is worth trying again, for a Retry-After header.
 */
export async function consumeRateLimit(name: string, key: string, limit: RateLimit): Promise<RateLimitVerdict> {
  if (!(limit.pointsPerMinute > 0)) return ALLOWED;
  let limits: RateLimits;
  try {
    limits = appRateLimits();
  } catch (error) {
    // No database configured (DATABASE_URL): like any other database problem.
    return unavailable(consoleLogger, name, limit, error);
  }
  return limits.consume(name, key, limit);
}
