import http from "node:http";
import { createHistogram } from "node:perf_hooks";
import type { LoadResult } from "./load";
import type { PreparedRun } from "./scenario";

/**
 * The fixed-rate run, evenly paced and open-loop: request i is due at start + i / rate, and its
 * latency counts from then, not from when a connection was free to send it. A target that falls
 * behind therefore shows its backlog in p99 (no coordinated omission) and reads fewer answers a
 * second than asked, where autocannon's `overallRate` sends each second's share in one burst per
 * connection and measures a saturated target for as long as the burst lasts (bench/README.md,
 * Limits). autocannon has no paced mode, hence this sender on node:http: at most `connections`
 * keep-alive connections, requests waiting in the agent's queue when all are busy.
 *
 * The first second is a lead-in at the same rate, sent and checked like the rest but not
 * measured: the run before this one ended in a pause (its checks, this run's rows) in which the
 * pools may have closed idle connections, and ten reopened at once stall the first requests
 * (70 to 150 ms, the baseline's as much as the app's), which says nothing about a steady stream.
 */
const LEAD_IN_SECONDS = 1;

export async function runPaced(
  baseUrl: string,
  run: PreparedRun,
  mode: { connections: number; rate: number; durationSeconds: number },
): Promise<LoadResult> {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: mode.connections });
  const latencyMicros = createHistogram();
  const leadIn = Math.ceil(mode.rate * LEAD_IN_SECONDS);
  const scheduled = leadIn + Math.floor(mode.rate * mode.durationSeconds);
  const total = run.capacity === undefined ? scheduled : Math.min(scheduled, run.capacity);
  const intervalMs = 1000 / mode.rate;
  // `answered` and `lastAnswer` are the measured requests'; the others count every request.
  let [sent, answered, errors, non2xx] = [0, 0, 0, 0];
  let lastAnswer = 0;
  const pending: Promise<void>[] = [];

  const send = (dueAt: number, measured: boolean) => {
    const request = run.next();
    sent++;
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const headers = { ...request.headers, ...(body ? { "content-length": String(body.length) } : {}) };
    pending.push(
      new Promise<void>((resolve) => {
        const outgoing = http.request(
          { agent, host: url.hostname, port: url.port, method: request.method, path: request.path, headers },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => {
              const now = performance.now();
              const status = response.statusCode ?? 0;
              // A failed request fails the run, lead-in or not.
              if (status < 200 || status > 299) non2xx++;
              if (measured) {
                latencyMicros.record(Math.max(1, Math.round((now - dueAt) * 1000)));
                lastAnswer = now;
                answered++;
              }
              run.answered?.(request, { status, body: Buffer.concat(chunks).toString("utf8") });
              resolve();
            });
            response.on("error", () => {
              errors++;
              resolve();
            });
          },
        );
        // As autocannon's run: an answer this late counts as an error rather than stalling the run.
        outgoing.setTimeout(10_000, () => outgoing.destroy(new Error("timed out")));
        outgoing.on("error", () => {
          errors++;
          resolve();
        });
        outgoing.end(body);
      }),
    );
  };

  const start = performance.now();
  await new Promise<void>((resolve) => {
    let next = 0;
    const sendDue = () => {
      const now = performance.now();
      for (; next < total && start + next * intervalMs <= now; next++) send(start + next * intervalMs, next >= leadIn);
      if (next >= total) return resolve();
      setTimeout(sendDue, Math.max(0, start + next * intervalMs - performance.now()));
    };
    sendDue();
  });
  await Promise.all(pending);
  agent.destroy();
  // A target that kept up answers within the schedule; one that fell behind takes longer, and its
  // rate reads lower than asked.
  const measuredFrom = start + leadIn * intervalMs;
  const seconds = Math.max(mode.durationSeconds, (lastAnswer - measuredFrom) / 1000);
  const percentile = (p: number) => (latencyMicros.count > 0 ? latencyMicros.percentile(p) / 1000 : 0);
  return {
    requestsPerSecond: answered / seconds,
    p50Ms: percentile(50),
    p95Ms: percentile(95),
    p99Ms: percentile(99),
    errors,
    non2xx,
    sent,
    durationSeconds: seconds,
    ranOut: scheduled > total,
  };
}
