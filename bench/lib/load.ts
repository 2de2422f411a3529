import autocannon from "autocannon";
import { createHistogram } from "node:perf_hooks";
import { runPaced } from "./paced";
import type { BenchRequest, PreparedRun } from "./scenario";

/** The two ways a target is loaded; see bench/README.md for what each one tells. */
export type LoadMode =
  /** As many requests as `connections` keep-alive connections can get answered: capacity. */
  | { kind: "throughput"; connections: number; durationSeconds: number }
  /**
   * A steady `rate` per second, well under capacity: latency at a realistic load. Evenly paced
   * (./paced.ts) unless `pacing` is "burst": autocannon's `overallRate`, each second's share sent
   * back to back on every connection.
   */
  | { kind: "fixed-rate"; connections: number; rate: number; durationSeconds: number; pacing?: "even" | "burst" };

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  /** The dashboard's goal is stated at p95. */
  p95Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  /** Requests written to a connection, answered or not. */
  sent: number;
  /** Seconds the load lasted. */
  durationSeconds: number;
  /** The run's prepared requests ran out before the time was up (its figures cover less time than asked). */
  ranOut: boolean;
}

/** What autocannon keeps per connection between a request and its answer. */
interface ConnectionContext {
  request?: BenchRequest;
}

/**
 * Loads `baseUrl` with the requests of `run`, one `run.next()` per request sent. Latencies are
 * recorded here, in microseconds, because autocannon's own histogram keeps whole milliseconds,
 * too coarse for a bare server that answers in a fraction of one.
 */
export async function runLoad(baseUrl: string, run: PreparedRun, mode: LoadMode): Promise<LoadResult> {
  if (mode.kind === "fixed-rate" && mode.pacing !== "burst") return runPaced(baseUrl, run, mode);
  const latencyMicros = createHistogram();
  let sent = 0;
  const { answered } = run;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: mode.connections,
        duration: mode.durationSeconds,
        overallRate: mode.kind === "fixed-rate" ? mode.rate : undefined,
        // Spread over the connections; a connection that has sent its share closes, and the run
        // ends early (and says so) rather than sending a request the scenario did not prepare.
        maxOverallRequests: run.capacity,
        // A request unanswered for this long counts as an error rather than stalling the run.
        timeout: 10,
        requests: [
          {
            // With pipelining 1, a connection's context holds the one request it is waiting on.
            setupRequest: (defaults, context) => {
              const request = run.next();
              sent++;
              (context as ConnectionContext).request = request;
              // A copy of the headers: autocannon adds Content-Length to the object it is given.
              return { ...defaults, ...request, headers: { ...request.headers } };
            },
            onResponse: answered
              ? (status, body, context) => {
                  const { request } = context as ConnectionContext;
                  if (request) answered(request, { status, body });
                }
              : undefined,
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on("response", (_client, _statusCode, _bytes, responseTimeMs) => {
      latencyMicros.record(Math.max(1, Math.round(responseTimeMs * 1000)));
    });
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: latencyMicros.count > 0 ? latencyMicros.percentile(50) / 1000 : 0,
    p95Ms: latencyMicros.count > 0 ? latencyMicros.percentile(95) / 1000 : 0,
    p99Ms: latencyMicros.count > 0 ? latencyMicros.percentile(99) / 1000 : 0,
    errors: result.errors,
    non2xx: result.non2xx,
    sent,
    durationSeconds: result.duration,
    ranOut: run.capacity !== undefined && sent >= run.capacity,
  };
}
