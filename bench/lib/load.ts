import autocannon from "autocannon";
import { createHistogram } from "node:perf_hooks";
import type { BenchRequest } from "./scenario";

/** The two ways a target is loaded; see bench/README.md for what each one tells. */
export type LoadMode =
  /** As many requests as `connections` keep-alive connections can get answered: capacity. */
  | { kind: "throughput"; connections: number; durationSeconds: number }
  /** A steady `rate` per second, well under capacity: latency at a realistic load. */
  | { kind: "fixed-rate"; connections: number; rate: number; durationSeconds: number };

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
}

/**
 * Loads `baseUrl` + `request.path` with autocannon. Latencies are recorded here, in
 * microseconds, because autocannon's own histogram keeps whole milliseconds, too coarse for
 * a bare server that answers in a fraction of one.
 */
export async function runLoad(baseUrl: string, request: BenchRequest, mode: LoadMode): Promise<LoadResult> {
  const latencyMicros = createHistogram();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}${request.path}`,
        method: request.method,
        headers: request.headers,
        body: request.body,
        connections: mode.connections,
        duration: mode.durationSeconds,
        overallRate: mode.kind === "fixed-rate" ? mode.rate : undefined,
        // A request unanswered for this long counts as an error rather than stalling the run.
        timeout: 10,
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on("response", (_client, _statusCode, _bytes, responseTimeMs) => {
      latencyMicros.record(Math.max(1, Math.round(responseTimeMs * 1000)));
    });
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: latencyMicros.percentile(50) / 1000,
    p99Ms: latencyMicros.percentile(99) / 1000,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
