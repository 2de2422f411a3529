import "server-only";
import { createHash } from "node:crypto";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { dbPool } from "./client";
import { consoleLogger, errorKind, type Logger } from "../log";

/**
 * Fixed-window request limits (so many per minute per key: a name such as "create-order" and a
 * client address) and failure counts per key, in PostgreSQL's `rate_limits` table, so every
 * instance of the app counts against the same allowance: a limit kept in one process's memory
 * would give each serverless instance an allowance of its own. Counting is rate-limiter-flexible's
 * (`RateLimiterPostgres`), a well-kept library rather than SQL of our own to get subtly wrong.
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
 * So many failures per key within a window (a wrong phone for one order number), after which the
 * key is locked until the window ends; `failures` 0 (or less) turns it off. Its reads and counts
 * throw when the counters cannot be reached: the caller answers "unavailable", never lets a guess
 * through uncounted.
 */
export interface FailureLimit {
  failures: number;
  windowSeconds: number;
}

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

  function limiterFor(name: string, points: number, windowSeconds = WINDOW_SECONDS): RateLimiterPostgres {
    const cacheKey = `${name}\u0000${points}\u0000${windowSeconds}`;
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
        // not one per request. Not for failures: their lock-out is read from the table, so
        // every instance (and a window ended early by an operator) answers alike.
        ...(windowSeconds === WINDOW_SECONDS ? { inMemoryBlockOnConsumed: points + 1 } : {}),
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
        await limiterFor(name, limit.pointsPerMinute).consume(storedKey(name, key));
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

    /** Whether `key` has had `limit.failures` failures within the current window (reads, spends nothing). */
    async lockedOut(name: string, key: string, limit: FailureLimit): Promise<boolean> {
      if (!(limit.failures > 0)) return false;
      const state = await limiterFor(name, limit.failures, limit.windowSeconds).get(storedKey(name, key));
      return (state?.consumedPoints ?? 0) >= limit.failures;
    },

    /** Counts one failure of `key`; the first one starts the window. */
    async countFailure(name: string, key: string, limit: FailureLimit): Promise<void> {
      if (!(limit.failures > 0)) return;
      // `penalty` adds without refusing: a locked key keeps counting, its window unchanged.
      await limiterFor(name, limit.failures, limit.windowSeconds).penalty(storedKey(name, key), 1);
    },

    /**
     * Spends one of `key`'s `limit.points` in a window of `limit.windowSeconds` from its first
     * spend (so many mails to one address a day): true while some are left, false once they are
     * spent; 0 points (or less) turns it off. Counting and checking are one statement, so
     * concurrent spends never get past the allowance together. Throws when the counters cannot be
     * reached: what to do then is the caller's.
     */
    async spend(name: string, key: string, limit: { points: number; windowSeconds: number }): Promise<boolean> {
      if (!(limit.points > 0)) return true;
      try {
        await limiterFor(name, limit.points, limit.windowSeconds).consume(storedKey(name, key));
        return true;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return false;
        throw refusal;
      }
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
