import { describe, expect, it } from "vitest";
import { safeShopPath } from "@/lib/http/return-path";

// Where the shopper's sign-in goes once signed in (`?next=` of /account/sign-in,
// lib/http/return-path.ts): a page of this shop, never the back office, the API or anywhere else.

describe("safeShopPath", () => {
  it.each(["/account", "/checkout", "/orders/lookup?x=1", "/account/addresses/new", "/"])("keeps %s", (path) => {
    expect(safeShopPath(path, "/account")).toBe(path);
  });

  it.each([
    ["another origin", "https://evil.example.test/account"],
    ["a protocol-relative address", "//evil.example.test/account"],
    ["a backslash, which browsers read as a slash", "/\\evil.example.test"],
    ["a way out with ..", "/account/../admin"],
    ["the back office", "/admin/orders"],
    ["the API", "/api/account/delete"],
    ["a relative path", "account"],
    ["a script", "javascript:alert(1)"],
    ["a header injection", "/account\r\nLocation: https://evil.example.test"],
    ["a fragment", "/account#x"],
    ["nothing", undefined],
    ["something else", ["/account"]],
  ])("refuses %s", (_, value) => {
    expect(safeShopPath(value, "/account")).toBe("/account");
  });
});
