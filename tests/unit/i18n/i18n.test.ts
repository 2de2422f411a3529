import { describe, expect, it } from "vitest";
import { dictionary, en, pt } from "@/lib/i18n/dictionaries";
import { htmlLang, LANGS, langCookie, parseLang } from "@/lib/i18n/languages";
import { cartNoticeMessage, cartNoticeQuery, orderErrorMessage, readCartNotice } from "@/lib/cart/cart-notices";
import { isPopupBlockedError } from "@/lib/pay/sdk/errors";

const query = (text: string) => Object.fromEntries(new URLSearchParams(text));

describe("the lang cookie", () => {
  it("is Portuguese unless it says exactly en", () => {
    expect(parseLang("en")).toBe("en");
    expect(parseLang("pt")).toBe("pt");
    for (const value of [undefined, "", "EN", "en-US", "fr", "pt-AO", 1]) expect(parseLang(value)).toBe("pt");
  });

  it("gives <html lang> pt-AO for Portuguese and en for English", () => {
    expect(htmlLang("pt")).toBe("pt-AO");
    expect(htmlLang("en")).toBe("en");
  });

  it("is httpOnly and lax, secure only on an https shop", () => {
    expect(langCookie("en", "http://localhost:3000")).toMatchObject({
      name: "lang",
      value: "en",
      httpOnly: true,
      sameSite: "lax",
      secure: false,
      path: "/",
    });
    expect(langCookie("pt", "https://loja.example").secure).toBe(true);
  });
});

describe("dictionaries", () => {
  it("are the language list: one file each, Portuguese first, each naming every language", () => {
    expect(LANGS).toEqual(["pt", "en"]);
    for (const lang of LANGS) {
      expect(Object.keys(dictionary(lang).shop.languageNames).sort()).toEqual([...LANGS].sort());
      expect(htmlLang(lang)).toBe(dictionary(lang).locale);
    }
  });

  it("default to Portuguese", () => {
    expect(dictionary()).toBe(pt);
    expect(dictionary("en")).toBe(en);
  });

  it("show the reference's life span in hours when it is whole hours", () => {
    expect(pt.order.lifeSpan(1440)).toBe("A referência é válida durante 24 horas.");
    expect(en.order.lifeSpan(1440)).toBe("The reference is valid for 24 hours.");
    expect(pt.order.lifeSpan(60)).toContain("1 hora.");
    expect(pt.order.lifeSpan(90)).toContain("90 minutos.");
    expect(en.order.lifeSpan(1)).toContain("1 minute.");
    expect(pt.order.lifeSpan(4320)).toContain("3 dias.");
  });

  it("say the shop is in test mode with a pk_test_ key", () => {
    expect(pt.shop.testMode).toBe("Modo de teste: nenhum pagamento é real");
    expect(en.shop.testMode).toBe("Test mode: no payment is real");
  });

  it("count items in the singular and the plural", () => {
    expect(pt.shop.cartUnit(1)).toBe("artigo");
    expect(pt.shop.cartUnit(0)).toBe("artigos");
    expect(en.shop.cartUnit(3)).toBe("items");
  });
});

describe("cart notices in the query", () => {
  it("carry a success, a capped quantity or a refusal to the next page", () => {
    const added = cartNoticeQuery({ ok: true, cartId: "c", quantity: 2, capped: false }, "added");
    expect(readCartNotice(query(added))).toEqual({ tone: "success", kind: "added" });

    const capped = cartNoticeQuery({ ok: true, cartId: "c", quantity: 4, capped: true }, "added");
    const cappedNotice = readCartNotice(query(capped));
    expect(cappedNotice).toEqual({ tone: "success", kind: "capped", quantity: 4 });
    expect(cartNoticeMessage(pt, cappedNotice!)).toContain("(4)");

    // Lowered by the shop's caps (MAX_UNITS_PER_LINE…), not by the stock: its own sentence.
    const limited = cartNoticeQuery({ ok: true, cartId: "c", quantity: 10, capped: true, cappedBy: "limit" }, "added");
    const limitedNotice = readCartNotice(query(limited));
    expect(limitedNotice).toEqual({ tone: "success", kind: "limited", quantity: 10 });
    expect(cartNoticeMessage(pt, limitedNotice!)).toBe(pt.cartNotices.limited(10));
    expect(cartNoticeMessage(pt, limitedNotice!)).not.toBe(pt.cartNotices.capped(10));

    const locked = cartNoticeQuery({ ok: false, status: 409, code: "cart_locked", message: "…" }, "updated");
    const lockedNotice = readCartNotice(query(locked));
    expect(lockedNotice).toEqual({ tone: "error", kind: "cart_locked" });
    expect(cartNoticeMessage(en, lockedNotice!)).toBe(en.cartNotices.cart_locked);
  });

  it("ignore anything not on the list", () => {
    expect(readCartNotice({})).toBeNull();
    expect(readCartNotice({ notice: "<script>" })).toBeNull();
    expect(readCartNotice({ notice: "toString" })).toBeNull();
    expect(readCartNotice({ notice: ["added", "added"] })).toBeNull();
    expect(readCartNotice({ notice: "capped", quantity: "lots" })).toBeNull();
  });

  it("name the line limit", () => {
    expect(cartNoticeMessage(pt, { tone: "error", kind: "too_many_lines" })).toContain("50");
  });
});

describe("why an order could not be created", () => {
  it("has a sentence in each language for every error code endpoint A answers with", () => {
    const codes = [
      "invalid_request",
      "cart_empty",
      "cart_checked_out",
      "checkout_in_progress",
      "unknown_product",
      "out_of_stock",
      "amount_too_large",
      "unavailable",
      "payment_service_unavailable",
      "payment_service_error",
      "rate_limited",
      "too_many_open_orders",
      "phone_not_account",
    ];
    for (const code of codes) {
      expect(orderErrorMessage(pt, code), code).toBe(pt.payButton.orderErrors[code as "cart_empty"]);
      expect(orderErrorMessage(en, code), code).toBe(en.payButton.orderErrors[code as "cart_empty"]);
      expect(orderErrorMessage(pt, code), code).not.toBe(pt.payButton.orderErrors.other);
    }
  });

  it("falls back to the general sentence for any other code", () => {
    for (const code of ["teapot", "toString", "__proto__", "invalid_json", ""])
      expect(orderErrorMessage(pt, code)).toBe(pt.payButton.orderErrors.other);
  });
});

describe("a popup the browser blocked", () => {
  it("is recognised by the SDK's words, whatever their case or hyphen", () => {
    expect(
      isPopupBlockedError(
        new Error("Pay: the browser blocked the payment popup; allow popups for this site and try again"),
      ),
    ).toBe(true);
    expect(isPopupBlockedError("Pop-up blocked")).toBe(true);
    expect(isPopupBlockedError(new Error("Pay: the checkout failed: unknown"))).toBe(false);
    expect(isPopupBlockedError(new Error("blocked by the bank"))).toBe(false);
    expect(isPopupBlockedError({ message: "popup blocked" })).toBe(true);
    expect(isPopupBlockedError(undefined)).toBe(false);
  });
});
