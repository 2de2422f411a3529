import { z } from "zod";
import { errorReply, type Reply } from "./http.js";

/**
 * Failures injected into the next service-API calls, so tests can prove that a client
 * retries, backs off, honours Retry-After and survives timeouts and dropped connections.
 * A faulted request is logged but never reaches its handler: no token, no order.
 */

const FAULT_KINDS = ["500", "503", "429", "timeout", "reset"] as const;

export const faultSchema = z
  .strictObject({
    count: z.int().min(1).max(1000),
    kind: z.enum(FAULT_KINDS),
    retryAfterSeconds: z.int().min(0).optional(),
    /** Only requests to this exact path; every service-API path when absent. */
    path: z.string().startsWith("/").optional(),
  })
  .refine((fault) => fault.retryAfterSeconds === undefined || fault.kind === "429" || fault.kind === "503", {
    error: "retryAfterSeconds applies to the 429 and 503 kinds only",
    path: ["retryAfterSeconds"],
  });

export type Fault = z.infer<typeof faultSchema>;

const STATUS_ERRORS = {
  "500": { status: 500, code: "internal_error" },
  "503": { status: 503, code: "service_unavailable" },
  "429": { status: 429, code: "rate_limited" },
} as const;

/** How the server carries out a fault: answer with an error, hold the request open, or drop the connection. */
export type FaultAction = { kind: keyof typeof STATUS_ERRORS; reply: Reply } | { kind: "timeout" } | { kind: "reset" };

export class FaultQueue {
  private pending: Fault[] = [];

  add(fault: Fault): void {
    this.pending.push({ ...fault });
  }

  list(): Fault[] {
    return this.pending.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.pending = [];
  }

  /** The action of the first pending fault matching `path`, using up one of its count. */
  take(path: string): FaultAction | undefined {
    const fault = this.pending.find((candidate) => candidate.path === undefined || candidate.path === path);
    if (!fault) return undefined;
    fault.count -= 1;
    if (fault.count === 0) this.pending = this.pending.filter((candidate) => candidate !== fault);
    return actionOf(fault);
  }
}

function actionOf(fault: Fault): FaultAction {
  if (fault.kind === "timeout" || fault.kind === "reset") return { kind: fault.kind };
  const { status, code } = STATUS_ERRORS[fault.kind];
  const headers =
    fault.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(fault.retryAfterSeconds) };
  return { kind: fault.kind, reply: errorReply(status, code, `injected fault (${fault.kind})`, headers) };
}
