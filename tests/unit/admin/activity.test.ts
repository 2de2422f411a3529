import { describe, expect, it } from "vitest";
import { detailLines } from "@/lib/admin/activity";
import { changedFields, recordedFields } from "@/lib/admin/event-changes";
import { STAFF_EVENT_KINDS } from "@/lib/admin/staff-events";
import { en, pt } from "@/lib/i18n/dictionaries";

// The activity page's words and what an event's details say (lib/admin/activity.ts,
// lib/admin/event-changes.ts): every kind of event has a name in every language, and an edit's
// record holds only what it changed.

describe("the names of the kinds of events", () => {
  it.each([
    ["pt", pt],
    ["en", en],
  ])("%s names every kind, and only those", (_lang, dictionary) => {
    expect(Object.keys(dictionary.admin.activity.kinds).sort()).toEqual([...STAFF_EVENT_KINDS].sort());
  });
});

describe("an edit's changes", () => {
  it("are the fields whose value differs, before and after, dates as instants and lists by value", () => {
    const before = {
      name: "Kilamba",
      feeAoa: 1500,
      freeFromAoa: null,
      municipalities: ["Belas", "Talatona"],
      endsAt: new Date("2026-12-01T00:00:00Z"),
    };
    const after = {
      name: "Kilamba",
      feeAoa: 2000,
      freeFromAoa: 20000,
      municipalities: ["Belas", "Talatona"],
      endsAt: new Date("2026-12-31T00:00:00Z"),
    };
    expect(changedFields(before, after)).toEqual({
      feeAoa: { from: 1500, to: 2000 },
      freeFromAoa: { from: null, to: 20000 },
      endsAt: { from: "2026-12-01T00:00:00.000Z", to: "2026-12-31T00:00:00.000Z" },
    });
    expect(changedFields(after, { ...after, endsAt: new Date(after.endsAt) })).toEqual({});
    expect(recordedFields({ at: new Date("2026-12-01T00:00:00Z"), n: 1 })).toEqual({
      at: "2026-12-01T00:00:00.000Z",
      n: 1,
    });
  });

  it("read as one line a field on the activity page", () => {
    expect(
      detailLines({
        name: "Kilamba",
        changes: { feeAoa: { from: 1500, to: 2000 }, active: { from: true, to: false } },
      }),
    ).toEqual(["name: Kilamba", "feeAoa: 1500 → 2000", "active: true → false"]);
    expect(detailLines({ state: "shipped", note: null, categories: ["Café", "Mel"] })).toEqual([
      "state: shipped",
      "note: —",
      'categories: ["Café","Mel"]',
    ]);
  });
});
