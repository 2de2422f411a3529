import { describe, expect, it } from "vitest";
import { NOT_A_NAME } from "@/lib/orders/customer-name-rules";
import { customerSchema } from "@/lib/orders/customer-rules";

// The checkout's customer name (lib/orders/customer-name-rules.ts): a name and nothing else, as
// the server and the checkout form both check it through customerSchema.

const nameOf = (name: string) => customerSchema.safeParse({ name, phone: "+244 923 456 789" });

describe("a real name passes", () => {
  it.each([
    "Ana",
    "Zé",
    "Maria José dos Santos",
    "Conceição Nzinga",
    "Ana-Luísa Muondo",
    "D'Almeida",
    "N’Gola Kiluanje",
    "O'Neil",
    "João 2º",
    "Luís II",
    "J. R. Tolkien",
    "J.R.R. Tolkien",
    "Sr. António Ngunza",
    "Dra. Esperança",
    "Comercial Kwanza, Lda.",
    "S.A. Kinaxixi",
    "Loja 24 Horas",
    "Edifício 2000",
    "Maria\nJoão",
    "Åsa Öberg",
    "Muḥammad ibn Mūsā",
    "李小龙",
    "Ἀλέξανδρος",
    "a".repeat(100),
  ])("%s", (name) => {
    const parsed = nameOf(name);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data?.name).toBe(name.trim());
  });
});

describe("more than a name is refused, naming customer.name", () => {
  it.each([
    ["the mail that went out", "GANHOU 500.000 Kz! Reclame ja em https://premio-loja.example/kz"],
    ["a scheme", "Ana http://x"],
    ["a scheme in capitals", "Ana HTTPS://X"],
    ["another scheme", "ftp://files"],
    ["www.", "Ana www.premio"],
    ["WWW.", "WWW.PREMIO"],
    ["a domain and path", "premio-loja.example/kz"],
    ["a bare domain", "Ana site.ao"],
    ["a domain with accents", "Ana prémio.ão"],
    ["a domain in capitals", "SITE.AO"],
    ["a full-width address", "ｗｗｗ．ｓｉｔｅ．ａｏ"],
    ["an ideographic full stop", "site。ao"],
    ["a half-width ideographic full stop", "site｡ao"],
    ["an e-mail address", "ana@example.com"],
    ["an @ on its own", "Ana @ Maria"],
    ["a full-width @", "ana＠example"],
    ["markup", "<b>Ana</b>"],
    ["a >", "Ana > Maria"],
    ["a full-width <", "Ana ＜script＞"],
    ["a phone with spaces", "Ana 923 456 789"],
    ["a phone without", "Ana 923456789"],
    ["a phone with dashes and a code", "Ana +244-923-456-789"],
    ["an amount", "500.000 Kz"],
    ["an amount with commas", "Ana 50,000"],
    ["five digits", "Ana 12345"],
    ["digits spread out", "1 2 3 4 5"],
    ["digits in parentheses", "Ana (923) 45"],
    ["Arabic-Indic digits", "Ana ٩٢٣٤٥٦٧٨٩"],
    ["full-width digits", "Ana ９２３４５"],
    ["a zero-width space hiding www.", "w\u200Bww.premio"],
    ["a bidirectional override", "Ana \u202Eoa.etis"],
    ["a NUL", "Ana\u0000"],
    ["a bell", "Ana\u0007"],
  ])("%s: %s", (_what, name) => {
    const parsed = nameOf(name);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues).toEqual([expect.objectContaining({ path: ["name"], message: NOT_A_NAME })]);
  });

  it("an empty or too long name keeps its own refusal", () => {
    expect(nameOf("  ").error!.issues).toEqual([expect.objectContaining({ path: ["name"], message: "is empty" })]);
    expect(nameOf("a".repeat(101)).error!.issues).toEqual([
      expect.objectContaining({ path: ["name"], message: "is longer than 100 characters" }),
    ]);
  });
});
