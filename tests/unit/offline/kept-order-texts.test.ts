import { describe, expect, it } from "vitest";
import { fillSlot, SLOT } from "@/components/offline/kept-order-texts";
import { DICTIONARIES } from "@/lib/i18n/dictionaries";

describe("the offline page's texts, filled in by the browser", () => {
  it.each(Object.entries(DICTIONARIES))(
    "%s: each text the server hands over has one slot, filled as the dictionary would",
    (_, t) => {
      for (const [text, write] of [
        [t.order.title(SLOT), t.order.title],
        [t.offline.savedAt(SLOT), t.offline.savedAt],
      ] as const) {
        expect(text.split(SLOT)).toHaveLength(2);
        expect(fillSlot(text, "7CDAC2DD")).toBe(write("7CDAC2DD"));
      }
    },
  );
});
