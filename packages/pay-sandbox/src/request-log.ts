/**
 * Every call a client made to the service API, as the service saw it: full headers (the
 * Authorization header included) and the raw body. It exists so tests can check exactly
 * what the app sent; it is served only by the local control API and never written to the
 * human log or to disk.
 */

export interface LoggedRequest {
  /** Increases by one per request for the life of the sandbox, across clears. */
  seq: number;
  /** Sandbox clock, ISO 8601. */
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-case names, full values. */
  headers: Record<string, string>;
  body: string;
  /** 0 while no answer has been sent: in flight, or held or reset by a fault. */
  status: number;
  /** The `error` code of a 4xx/5xx answer. */
  error?: string;
  /** The kind of the injected fault that answered this request. */
  fault?: string;
}

export type NewLoggedRequest = Omit<LoggedRequest, "seq" | "status">;

export interface RequestFilter {
  path?: string;
  /** Only requests with a greater seq. */
  since?: number;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private lastSeq = 0;

  constructor(private readonly capacity = 5000) {}

  /** Adds a request on arrival; the caller completes the returned entry when it answers. */
  record(request: NewLoggedRequest): LoggedRequest {
    const entry: LoggedRequest = { seq: ++this.lastSeq, ...request, status: 0 };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return entry;
  }

  list(filter: RequestFilter = {}): LoggedRequest[] {
    return this.entries.filter(
      (entry) =>
        (filter.path === undefined || entry.path === filter.path) &&
        (filter.since === undefined || entry.seq > filter.since),
    );
  }

  clear(): void {
    this.entries = [];
  }
}
