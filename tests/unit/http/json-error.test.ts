import { describe, expect, it } from "vitest";
import { jsonError, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/json-error";

describe("jsonError", () => {
  it("gives a 503 a Retry-After, and keeps one the caller set", () => {
    expect(jsonError(503, "unavailable", "later").headers.get("Retry-After")).toBe(
      String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    );
    expect(jsonError(503, "busy", "later", { "Retry-After": "30" }).headers.get("Retry-After")).toBe("30");
  });

  it("adds nothing to other statuses, and keeps the caller's headers", async () => {
    const response = jsonError(409, "out_of_stock", "none left", { "Cache-Control": "no-store" });
    expect(response.headers.get("Retry-After")).toBeNull();
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: { code: "out_of_stock", message: "none left" } });
  });
});
