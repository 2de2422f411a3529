import { describe, expect, it } from "vitest";
import {
  blockedWithoutTwoFactor,
  PAGES_WITHOUT_TWO_FACTOR,
  ROUTES_WITHOUT_TWO_FACTOR,
  TWO_FACTOR_PAGE,
} from "@/lib/admin/two-factor-gate";
import { BACK_OFFICE_PAGES, BACK_OFFICE_ROUTES, mayCallRoute, mayOpenPage } from "@/lib/admin/roles";

// What a person without two-factor may still open while the owner requires it: their account and
// signing out, names the roles' table knows and everyone may open (a rename there fails here).

const required = { requireTwoFactor: true, twoFactorEnabled: false };

describe("two-factor for everyone, as the guards apply it", () => {
  it("keeps a person without it from every page and route but their account's and signing out", () => {
    for (const { path } of BACK_OFFICE_PAGES)
      expect(blockedWithoutTwoFactor(required, "page", path), path).toBe(path !== TWO_FACTOR_PAGE);
    for (const { path } of BACK_OFFICE_ROUTES)
      expect(blockedWithoutTwoFactor(required, "route", path), path).toBe(!ROUTES_WITHOUT_TWO_FACTOR.includes(path));
    expect(blockedWithoutTwoFactor(required, "route", "/api/admin/account/")).toBe(false);
  });

  it("keeps nobody while it is off, nor anyone whose two-factor is on", () => {
    for (const state of [
      { requireTwoFactor: false, twoFactorEnabled: false },
      { requireTwoFactor: true, twoFactorEnabled: true },
    ]) {
      expect(blockedWithoutTwoFactor(state, "page", "/admin/orders")).toBe(false);
      expect(blockedWithoutTwoFactor(state, "route", "/api/admin/people")).toBe(false);
    }
  });

  it("names only pages and routes of the roles' table that every role may open", () => {
    for (const path of PAGES_WITHOUT_TWO_FACTOR) expect(mayOpenPage("staff", path), path).toBe(true);
    for (const path of ROUTES_WITHOUT_TWO_FACTOR) expect(mayCallRoute("staff", path, "POST"), path).toBe(true);
  });
});
