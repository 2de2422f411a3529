import { describe, expect, it } from "vitest";
import { returnPathOf, safeAdminPath, withQueryParameter } from "@/lib/http/return-path";

// Where the sign-in sends the owner back to after a session ended under a form
// (lib/http/return-path.ts): a back-office page of this shop, never anywhere else.

describe("safeAdminPath", () => {
  it.each([
    "/admin",
    "/admin?x=1",
    "/admin/products/4b3a8d4e-3f0e-4a39-9a4c-2f0f3f6d7a11",
    "/admin/promo-codes?edit=abc&draft=0b8f2f7e-8a49-4f5c-a3c6-0c2d1f5e9b10",
    "/admin/orders?search=%C3%A7&status=PEN",
  ])("keeps %s", (path) => {
    expect(safeAdminPath(path)).toBe(path);
  });

  it.each([
    ["another origin", "https://evil.example.test/admin"],
    ["a protocol-relative address", "//evil.example.test/admin"],
    ["a backslash, which browsers read as a slash", "/\\evil.example.test/admin"],
    ["a backslash further on", "/admin\\..\\..\\x"],
    ["a way out with ..", "/admin/../checkout"],
    ["an encoded way out", "/admin/%2e%2e/checkout"],
    ["a page of the shop, not the back office", "/checkout"],
    ["a name that only starts like it", "/administrator"],
    ["a script", "javascript:alert(1)"],
    ["a header injection", "/admin\r\nLocation: https://evil.example.test"],
    ["a tab", "/admin\t"],
    ["a fragment", "/admin#x"],
    ["a space the parser would encode", "/admin/a b"],
    ["nothing", ""],
    ["something else than text", 42],
    ["far too long", `/admin?q=${"x".repeat(2000)}`],
  ])("refuses %s", (_what, value) => {
    expect(safeAdminPath(value)).toBeUndefined();
  });
});

describe("returnPathOf (the Referer of a form post)", () => {
  const app = "https://loja.example.test";

  it("the page on APP_URL's origin, with its navigation parameters and without a form's old outcome", () => {
    expect(
      returnPathOf(`${app}/admin/promo-codes?edit=abc&done=saved&error=x&field=code&page=2#promo-codes`, app, null),
    ).toBe("/admin/promo-codes?edit=abc&page=2");
    expect(returnPathOf(`${app}/admin/catalogue?outcome=applied&created=3`, app, null)).toBe("/admin/catalogue");
  });

  it("on this machine, the Host the browser used", () => {
    expect(returnPathOf("http://127.0.0.1:3000/admin/orders", "http://localhost:3000", "127.0.0.1:3000")).toBe(
      "/admin/orders",
    );
    expect(
      returnPathOf("http://127.0.0.1:3000/admin/orders", "http://localhost:3000", "localhost:3000"),
    ).toBeUndefined();
  });

  it.each([
    ["no Referer", null],
    ["another site", "https://evil.example.test/admin"],
    ["http for an https shop", "http://loja.example.test/admin"],
    ["a page outside the back office", `${app}/checkout`],
    ["not an address", "not a url"],
  ])("nothing for %s", (_what, referer) => {
    expect(returnPathOf(referer, app, null)).toBeUndefined();
  });
});

it("withQueryParameter adds one parameter to a path", () => {
  expect(withQueryParameter("/admin/products/x", "draft", "id")).toBe("/admin/products/x?draft=id");
  expect(withQueryParameter("/admin/promo-codes?edit=a", "draft", "id")).toBe("/admin/promo-codes?edit=a&draft=id");
});
