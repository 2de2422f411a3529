import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { spreadsheetPhone } from "@/lib/orders/export-admin";

// The orders CSV's phone column (lib/orders/export-admin.ts): readable, and never a formula or a number.

describe("spreadsheetPhone", () => {
  it.each([
    ["+244 923 456 789", "923 456 789"],
    ["+244923456789", "923 456 789"],
    ["00244 923 456 789", "923 456 789"],
    ["244 923 456 789", "923 456 789"],
    ["(244) 923-456-789", "923 456 789"],
    ["923456789", "923 456 789"],
    ["923 456 789", "923 456 789"],
    ["222 123 456", "222 123 456"],
    [" +244 923 456 789 ", "923 456 789"],
    // Angola's trunk 0, dots and a bracketed +: one number, one national form (lib/phone.ts).
    ["0923456789", "923 456 789"],
    ["0923 456 789", "923 456 789"],
    ["+244 0923 456 789", "923 456 789"],
    ["00244 0923 456 789", "923 456 789"],
    ["244 0923 456 789", "923 456 789"],
    ["923.456.789", "923 456 789"],
    ["+244.923.456.789", "923 456 789"],
    ["(+244) 923 456 789", "923 456 789"],
  ])("writes the Angolan %j in its national form, %j", (typed, written) => {
    expect(spreadsheetPhone(typed)).toBe(written);
  });

  it.each([
    ["+351 912 345 678", "00 351 912 345 678"],
    ["+351912345678", "00 351912345678"],
    ["0033 6 12 34 56 78", "00 33 6 12 34 56 78"],
    // Nine digits after a country code that is not Angola's are not an Angolan number.
    ["+376 123 456", "00 376 123 456"],
    ["+1 (202) 555-0123", "00 1 (202) 555-0123"],
  ])("writes another country's %j with 00 for the +, %j", (typed, written) => {
    expect(spreadsheetPhone(typed)).toBe(written);
  });

  it("keeps anything else as typed", () => {
    expect(spreadsheetPhone("12345678")).toBe("12345678");
    expect(spreadsheetPhone("(21) 9 8765-4321")).toBe("(21) 9 8765-4321");
  });

  it.each(["+244 923 456 789", "+351 912 345 678", "00244923456789", "923456789", "(244) 923-456-789"])(
    "%j needs no apostrophe in the CSV: nothing a spreadsheet runs as a formula, and no plain number",
    (typed) => {
      const written = spreadsheetPhone(typed);
      expect(written).not.toMatch(/^[=+\-@\t\r]/);
      expect(written).not.toMatch(/^\d+$/);
      expect(stringify([[written]], { escape_formulas: true })).toBe(`${written}\n`);
    },
  );

  it("leaves the CSV's own neutralising to catch what no checkout writes", () => {
    expect(stringify([[spreadsheetPhone("=1+1")]], { escape_formulas: true })).toBe("'=1+1\n");
  });
});
