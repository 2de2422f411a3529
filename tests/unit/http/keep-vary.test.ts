import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { keepVary, mergeVary } from "../../../scripts/lib/keep-vary.mjs";

// scripts/serve.mjs: next.config.mjs's `Vary: Save-Data` on the cached pages survives the Vary
// Next sets on every page afterwards.

describe("keepVary", () => {
  it("adds a later Vary to an earlier one instead of replacing it", () => {
    const response = keepVary(new ServerResponse(new IncomingMessage(new Socket())));
    response.setHeader("Vary", "Save-Data");
    response.setHeader("Vary", "rsc, next-router-state-tree");
    expect(response.getHeader("vary")).toBe("Save-Data, rsc, next-router-state-tree");
  });

  it("leaves a first Vary, and every other header, as they are set", () => {
    const response = keepVary(new ServerResponse(new IncomingMessage(new Socket())));
    response.setHeader("vary", "Accept");
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Cache-Control", "public");
    expect(response.getHeader("vary")).toBe("Accept");
    expect(response.getHeader("cache-control")).toBe("public");
  });

  it("names each header once, whatever its case; * stays alone", () => {
    expect(mergeVary("Save-Data, Accept-Encoding", "accept-encoding, RSC")).toBe("Save-Data, Accept-Encoding, RSC");
    expect(mergeVary(["Save-Data"], "")).toBe("Save-Data");
    expect(mergeVary("Save-Data", "*")).toBe("*");
  });
});
