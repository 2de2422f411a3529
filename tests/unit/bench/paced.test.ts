import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runPaced } from "@/bench/lib/paced";
import type { BenchRequest } from "@/bench/lib/scenario";

// The bench's fixed-rate sender against a local server: open-loop, so a target that cannot keep
// up shows its backlog, where a closed-loop sender would report its service time.

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that answers every request after `delayMs`, counting what it received. */
async function slowServer(delayMs: number): Promise<{ url: string; received: () => number }> {
  let received = 0;
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received++;
      setTimeout(() => response.end("{}"), delayMs);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, received: () => received };
}

const request: BenchRequest = {
  method: "POST",
  path: "/",
  body: "{}",
  headers: { "content-type": "application/json" },
};

describe("runPaced", () => {
  it("sends its lead-in and the measured requests, each answered, and measures only the latter", async () => {
    const target = await slowServer(1);
    const answers: number[] = [];
    const result = await runPaced(
      target.url,
      { next: () => request, answered: (_request, answer) => answers.push(answer.status) },
      { connections: 4, rate: 50, durationSeconds: 1 },
    );
    // One second of lead-in at the same rate, then one measured.
    expect(target.received()).toBe(100);
    expect(result.sent).toBe(100);
    expect(answers).toHaveLength(100);
    expect(result).toMatchObject({ errors: 0, non2xx: 0, ranOut: false });
    expect(result.requestsPerSecond).toBeLessThanOrEqual(50);
  });

  it("counts a request's wait for a free connection in its latency (no coordinated omission)", async () => {
    // One connection, 20 ms an answer, 100 requests a second due: the target serves half of
    // them in time, the backlog grows for the whole run, and the last ones wait for seconds.
    const target = await slowServer(20);
    const result = await runPaced(
      target.url,
      { next: () => request },
      { connections: 1, rate: 100, durationSeconds: 1 },
    );
    expect(target.received()).toBe(200);
    // A closed-loop sender would report about 20 ms for every request.
    expect(result.p99Ms).toBeGreaterThan(1000);
    expect(result.requestsPerSecond).toBeLessThan(100);
  });

  it("stops at the run's capacity, and says it ran out", async () => {
    const target = await slowServer(1);
    const result = await runPaced(
      target.url,
      { next: () => request, capacity: 30 },
      { connections: 2, rate: 50, durationSeconds: 1 },
    );
    expect(target.received()).toBe(30);
    expect(result.ranOut).toBe(true);
  });
});
