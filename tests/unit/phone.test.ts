import { describe, expect, it } from "vitest";
import { customerSchema } from "@/lib/orders/customer-rules";
import { phoneDigitForms, phoneKey } from "@/lib/phone";

// What one phone is (lib/phone.ts): every way of writing one Angolan number gives its nine
// national digits; a number of another country keeps its country code and a `+`, never a digit
// less, so it cannot be taken for an Angolan one.

const ANGOLAN = [
  "923456789",
  "923 456 789",
  "923-456-789",
  "923.456.789",
  "0923456789",
  "0923 456 789",
  "+244923456789",
  "+244 923 456 789",
  "+244 0923 456 789",
  "+244-923-456-789",
  "+244.923.456.789",
  "(+244) 923 456 789",
  "(244) 923-456-789",
  "244 923 456 789",
  "244923456789",
  "244 0923 456 789",
  "00244 923 456 789",
  "00244923456789",
  "00244 0923 456 789",
  " +244 923 456 789 ",
] as const;

const OTHERS = [
  ["+351 912 345 678", "+351912345678"],
  ["00351 912 345 678", "+351912345678"],
  ["+351912345678", "+351912345678"],
  // Given with its country code but without the +: no Angolan number has twelve digits.
  ["351 912 345 678", "+351912345678"],
  // Nine digits after a country code that is not Angola's are not an Angolan number.
  ["+376 123 456", "+376123456"],
  ["+1 (202) 555-0123", "+12025550123"],
  ["+244 923 45", "+24492345"],
  // Too short to say what it is: its digits.
  ["12345678", "12345678"],
] as const;

describe("phoneKey", () => {
  it.each(ANGOLAN)("%j is the Angolan number 923456789", (typed) => {
    expect(phoneKey(typed)).toBe("923456789");
  });

  it.each(OTHERS)("%j is not an Angolan number: %j", (typed, key) => {
    expect(phoneKey(typed)).toBe(key);
  });

  it("keeps one Angolan number apart from another, and from a foreign one with the same digits", () => {
    expect(phoneKey("923 456 788")).not.toBe(phoneKey("923 456 789"));
    expect(phoneKey("+376 123 456")).not.toBe(phoneKey("376 123 456"));
    expect(phoneKey("376 123 456")).toBe("376123456");
  });

  it("is its own key: a key read again is the same key", () => {
    for (const typed of [...ANGOLAN, ...OTHERS.map(([form]) => form)]) {
      const key = phoneKey(typed);
      expect(phoneKey(key), typed).toBe(key);
    }
  });
});

describe("the checkout's schema", () => {
  it.each([...ANGOLAN, "+351 912 345 678", "00351 912 345 678", "+1 (202) 555-0123"])(
    "accepts %j, which the lookup accepts too",
    (typed) => {
      expect(customerSchema.shape.phone.safeParse(typed).success).toBe(true);
    },
  );

  it.each(["abc", "923\u0000456789", "92345", "+", "923 456 789 x", "9 (((((((( 9", "++244923456789"])(
    "refuses %j",
    (typed) => {
      expect(customerSchema.shape.phone.safeParse(typed).success).toBe(false);
    },
  );
});

describe("phoneDigitForms", () => {
  it("lists, for a key, the stored forms (digits and a +) that are that phone, and no other", () => {
    for (const typed of [...ANGOLAN, ...OTHERS.map(([form]) => form)]) {
      const key = phoneKey(typed);
      const forms = phoneDigitForms(key);
      expect(forms, typed).toContain(typed.replace(/[^0-9+]/g, ""));
      for (const form of forms) expect(phoneKey(form), `${form} of ${typed}`).toBe(key);
    }
  });
});
