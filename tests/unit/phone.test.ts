import { describe, expect, it } from "vitest";
import { customerSchema } from "@/lib/orders/customer-rules";
import { isPhoneKey, phoneDigitForms, phoneKey, readablePhone } from "@/lib/phone";

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

  // Forms that would give one shopper a second key: refused rather than guessed at.
  it.each([
    "+0244 923 456 789",
    "0244 923 456 789",
    "+00244923456789",
    "000244 923 456 789",
    "(+0244) 923 456 789",
    "+0351 912 345 678",
    "+244 923 45",
    "+244 1234 567 890",
    "2441234567",
    "12345678",
    "555-1234",
    "+1234567890123456",
  ])("refuses %j, which would not have one phone's key, with a message saying what a phone is", (typed) => {
    const parsed = customerSchema.shape.phone.safeParse(typed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([expect.stringContaining("Angolan number")]);
  });
});

/** A seeded generator (mulberry32): the same forms on every run, another seed for other forms. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const digits = (count: number, first = "0123456789") =>
    Array.from({ length: count }, (_, i) => pick((i === 0 ? first : "0123456789").split(""))).join("");
  return { int, pick, digits, chance: (p: number) => next() < p };
}

/** Country codes other than Angola's (no code is a prefix of another: E.164's own rule). */
const FOREIGN_CODES = [
  "1",
  "7",
  "20",
  "27",
  "33",
  "34",
  "39",
  "44",
  "49",
  "55",
  "81",
  "86",
  "238",
  "239",
  "258",
  "260",
  "264",
  "351",
  "376",
  "971",
];
const SEPARATORS = ["", " ", " ", "  ", "-", ".", " - "];

/** `digits` in groups of 2 to 4 with separators between them, perhaps one group (not the last) in parentheses. */
function grouped(rng: ReturnType<typeof random>, digits: string): string {
  const groups: string[] = [];
  for (let at = 0; at < digits.length;) {
    const size = Math.min(2 + rng.int(3), digits.length - at);
    groups.push(digits.slice(at, at + size));
    at += size;
  }
  if (groups.length > 1 && rng.chance(0.2)) {
    const i = rng.int(groups.length - 1);
    groups[i] = `(${groups[i]})`;
  }
  return groups.reduce((text, group, i) => (i === 0 ? group : `${text}${rng.pick(SEPARATORS)}${group}`), "");
}

interface Generated {
  form: string;
  /** The key of the number meant, or null for a form that must be refused. */
  key: string | null;
}

/** One way of writing one phone: Angolan or foreign, with a prefix the checkout reads or one it must refuse. */
function generatedForm(rng: ReturnType<typeof random>): Generated {
  const space = () => rng.pick(["", " ", " ", "  ", "-", "."]);
  if (rng.chance(0.55)) {
    const national = rng.digits(9, "123456789");
    const trunk = rng.pick(["", "0"]);
    const [prefix, valid] = rng.pick([
      ["", true],
      ["+244", true],
      ["244", true],
      ["00244", true],
      ["(+244)", true],
      ["(244)", true],
      ["(00244)", true],
      ["+0244", false],
      ["0244", false],
      ["+00244", false],
      ["000244", false],
      ["(+0244)", false],
      ["(0244)", false],
    ] as const);
    return { form: `${prefix}${prefix ? space() : ""}${grouped(rng, trunk + national)}`, key: valid ? national : null };
  }
  const code = rng.pick(FOREIGN_CODES);
  const total = 7 + rng.int(11); // 7 to 17 digits with the code: E.164 allows 15
  const number = rng.digits(total - code.length);
  const prefix = rng.pick(["+", "00", "(+", "", "+0", "000", "0"]);
  const written = prefix === "(+" ? `(+${code})` : `${prefix}${code}`;
  const form = `${written}${space()}${grouped(rng, number)}`;
  // Nine digits without a code, or after a lone 0 (Angola's trunk 0), are an Angolan number: the
  // rule that gives them one key. Without a prefix, only a longer number is another country's;
  // shorter, or after a 0, it is refused, as is a 0 after a + or 00.
  if ((prefix === "" || prefix === "0") && total === 9) return { form, key: `${code}${number}` };
  const readable = prefix === "+" || prefix === "00" || prefix === "(+" || (prefix === "" && total > 9);
  return { form, key: readable && total <= 15 ? `+${code}${number}` : null };
}

/** What the checkout's pattern takes at most after a leading `(` and `+`: 24 characters. */
const withinLength = (form: string) => form.replace(/^\(?\+?/, "").length <= 24;
const compact = (form: string) => form.replace(/[^0-9+]/g, "");

describe("every form of one phone (generated)", () => {
  it("the checkout accepts each form of a number it can read, refuses the others, and gives each accepted form the number's one key", () => {
    const rng = random(20_240_048);
    const keysOfNumber = new Map<string, Set<string>>();
    let accepted = 0;
    for (let i = 0; i < 5_000; i++) {
      const { form, key } = generatedForm(rng);
      const typed = `${rng.pick(["", " "])}${form}${rng.pick(["", " "])}`;
      const parsed = customerSchema.shape.phone.safeParse(typed);
      if (key === null) {
        expect(parsed.success, `${JSON.stringify(typed)} must be refused`).toBe(false);
        continue;
      }
      expect(parsed.success, `${JSON.stringify(typed)} is ${key}`).toBe(withinLength(form));
      if (!parsed.success) continue;
      accepted++;
      const found = phoneKey(parsed.data);
      expect(found, JSON.stringify(typed)).toBe(key);
      expect(phoneKey(found)).toBe(found);
      expect(phoneDigitForms(found), JSON.stringify(typed)).toContain(compact(typed));
      keysOfNumber.set(key, (keysOfNumber.get(key) ?? new Set()).add(found));
    }
    // Enough of them accepted to mean something, and never two keys for one number.
    expect(accepted).toBeGreaterThan(2_000);
    for (const [key, keys] of keysOfNumber) expect([...keys], key).toEqual([key]);
  });

  it("whatever else it accepts (random text of digits, +, spaces, dashes, dots and parentheses) has one phone's key", () => {
    const rng = random(48);
    let accepted = 0;
    for (let i = 0; i < 50_000; i++) {
      const length = 7 + rng.int(20);
      let typed = rng.pick(["", "", "+", "(", "(+", "00", "0"]);
      for (let at = 0; at < length; at++)
        typed += rng.chance(0.75) ? rng.digits(1) : rng.pick([" ", "-", ".", "(", ")", "+"]);
      const parsed = customerSchema.shape.phone.safeParse(typed);
      if (!parsed.success) continue;
      accepted++;
      const key = phoneKey(parsed.data);
      expect(isPhoneKey(key), JSON.stringify(typed)).toBe(true);
      expect(phoneKey(key)).toBe(key);
      const forms = phoneDigitForms(key);
      expect(forms, JSON.stringify(typed)).toContain(compact(parsed.data));
      for (const other of forms) expect(phoneKey(other), `${other} of ${typed}`).toBe(key);
    }
    expect(accepted).toBeGreaterThan(1_000);
  });
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

describe("readablePhone", () => {
  it("writes an Angolan key with +244 and in threes, and a foreign one as it is", () => {
    for (const typed of ["923111222", "0923 111 222", "+244 923 111 222", "00244923111222", "(244) 923-111-222"])
      expect(readablePhone(phoneKey(typed)), typed).toBe("+244 923 111 222");
    expect(readablePhone(phoneKey("+351 912 345 678"))).toBe("+351912345678");
  });
});
