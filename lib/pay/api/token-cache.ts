import "server-only";

/** The service's access token, kept until shortly before it expires: {@link TokenCache}. */

export interface IssuedToken {
  accessToken: string;
  /** Lifetime in seconds as the service reported it, when it did. */
  expiresInSeconds?: number;
}

export interface TokenCacheOptions<Context = void> {
  /** Gets a new token; `context` is the one given to the `get()` that started the renewal. */
  fetchToken: (context: Context) => Promise<IssuedToken>;
  now?: () => number;
  /** The lifetime we asked for; assumed when the response does not say (contract 5.1: 3600). */
  requestedLifetimeSeconds?: number;
  /** Renew this long before expiry (contract 5.1: about 60 s). */
  renewBeforeSeconds?: number;
}

/**
 * The access token, cached in memory until shortly before it expires.
 * Single-flight: concurrent callers share one token request, and a failed request
 * is forgotten so the next caller tries again.
 */
export class TokenCache<Context = void> {
  private readonly fetchToken: (context: Context) => Promise<IssuedToken>;
  private readonly now: () => number;
  private readonly requestedLifetimeSeconds: number;
  private readonly renewBeforeSeconds: number;
  private cached: { token: string; renewAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(options: TokenCacheOptions<Context>) {
    this.fetchToken = options.fetchToken;
    this.now = options.now ?? Date.now;
    this.requestedLifetimeSeconds = options.requestedLifetimeSeconds ?? 3600;
    this.renewBeforeSeconds = options.renewBeforeSeconds ?? 60;
  }

  /** Callers that arrive during a renewal share it, whatever `context` they pass. */
  async get(context: Context): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.token;
    this.inFlight ??= this.renew(context).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Drops `token` after the service refused it; a newer token fetched meanwhile is kept. */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async renew(context: Context): Promise<string> {
    const issuedAt = this.now();
    const { accessToken, expiresInSeconds } = await this.fetchToken(context);
    const lifetime = expiresInSeconds ?? this.requestedLifetimeSeconds;
    // A lifetime shorter than twice the margin would make every call renew; keep half of it instead.
    const margin = Math.min(this.renewBeforeSeconds, lifetime / 2);
    this.cached = { token: accessToken, renewAt: issuedAt + (lifetime - margin) * 1000 };
    return accessToken;
  }
}
