import { describe, expect, it } from "vitest";
import { compareTimelineEvents, type TimelineEvent } from "@/lib/orders/timeline-admin";

// The back office's order history (lib/orders/timeline-admin.ts) in a known order whatever order
// the rows came in: by time, then kind (cause before effect), then the row's id.

const at = new Date("2026-12-01T10:00:00Z");
const later = new Date("2026-12-01T10:00:01Z");

const fulfilment = (id: string, when = at): TimelineEvent => ({
  kind: "fulfilment",
  at: when,
  id,
  state: "shipped",
  note: null,
  actor: "back office",
  createdAt: when,
});
const email = (id: string): TimelineEvent => ({
  kind: "email",
  at,
  id,
  to: "a@b.c",
  subject: "s",
  transport: "outbox",
});
const job = (id: string): TimelineEvent => ({
  kind: "job",
  at,
  job: {
    id,
    type: "fulfilment-mail",
    status: "DONE",
    attempts: 1,
    maxAttempts: 8,
    lastError: null,
    resolvedAt: null,
    resolutionNote: null,
    runAt: at,
    createdAt: at,
    updatedAt: at,
  },
});

const keyOf = (event: TimelineEvent) =>
  `${event.kind}:${event.kind === "job" ? event.job.id : "id" in event ? event.id : ""}`;

describe("compareTimelineEvents", () => {
  it("sorts ties of time by kind, then by row id, the same from any starting order", () => {
    const events = [
      email("e2"),
      job("j2"),
      fulfilment("f-late", later),
      fulfilment("f2"),
      { kind: "finalized", at, status: "CON", cancelReason: null } as TimelineEvent,
      job("j1"),
      email("e1"),
      fulfilment("f1"),
    ];
    const expected = [
      "finalized:",
      "fulfilment:f1",
      "fulfilment:f2",
      "job:j1",
      "job:j2",
      "email:e1",
      "email:e2",
      "fulfilment:f-late",
    ];
    expect([...events].sort(compareTimelineEvents).map(keyOf)).toEqual(expected);
    expect([...events].reverse().sort(compareTimelineEvents).map(keyOf)).toEqual(expected);
  });
});
