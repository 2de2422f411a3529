/**
 * Every answer the soak's shoppers got from the shop (status, Retry-After, time, which
 * instance), and the induced outages: the report and the "no 5xx outside an outage, only 503
 * with Retry-After inside one" check read them from here.
 */
export interface Answer {
  /** ms since the epoch when the request was sent, and how long it took. */
  at: number;
  ms: number;
  instance: number;
  route: string;
  /** 0: no HTTP answer (refused, reset, timed out); then `error` says which. */
  status: number;
  retryAfter: string | null;
  error?: string;
}

export interface Outage {
  what: string;
  from: number;
  /** Until when answers count as part of it (the recovery plus a grace period). */
  to: number;
  /** Only this instance's answers, or every answer (a database outage). */
  instance?: number;
}

export class HttpLog {
  readonly answers: Answer[] = [];
  readonly outages: Outage[] = [];
  readonly startedAt = Date.now();

  /** Seconds since the log began, for the report. */
  since(at: number): string {
    return `+${((at - this.startedAt) / 1000).toFixed(1)} s`;
  }

  add(answer: Answer): void {
    this.answers.push(answer);
  }

  /**
   * The outage a request sent at `at` (ms) and ended `ms` later overlaps, for `instance`'s
   * answers; undefined outside every outage. A request sent just before a kill is cut by it.
   */
  outageAt(at: number, instance?: number, ms = 0): Outage | undefined {
    return this.outages.find(
      (outage) =>
        at + ms >= outage.from && at <= outage.to && (outage.instance === undefined || outage.instance === instance),
    );
  }
}
