import { describe, expect, it } from "vitest";
import { chromiumExecutablePath, chromiumLaunchOptions, SYSTEM_CHROMIUM } from "../src/chromium.js";

describe("the browser the browser tests launch", () => {
  it("is the system Chromium when it is installed", () => {
    expect(chromiumExecutablePath((path) => path === SYSTEM_CHROMIUM)).toBe(SYSTEM_CHROMIUM);
    expect(chromiumLaunchOptions(() => true).executablePath).toBe(SYSTEM_CHROMIUM);
  });

  it("is Playwright's own (no executablePath) on a machine without it", () => {
    expect(chromiumExecutablePath(() => false)).toBeUndefined();
    expect(chromiumLaunchOptions(() => false).executablePath).toBeUndefined();
  });

  it("passes the same flags either way", () => {
    expect(chromiumLaunchOptions(() => false).args).toEqual(chromiumLaunchOptions(() => true).args);
    expect(chromiumLaunchOptions().args).toContain("--no-sandbox");
  });
});
