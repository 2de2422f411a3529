/**
 * What one phone is: the key every comparison of phones uses (per-phone promo limits, a signed-in
 * shopper's account and its orders, the back office's search, per-phone caps) and what the
 * orders' CSV prints. Pure, so the browser may load it.
 */

/** Angola's country code. */
const ANGOLA_CODE = "244";
/** An Angolan number without its country code or trunk 0: nine digits, the first not 0. */
const NATIONAL = /^[1-9][0-9]{8}$/;
/** The fewest digits the checkout takes for a phone, and the most (E.164's 15 after a 00). */
export const PHONE_DIGITS = { min: 7, max: 17 } as const;

/** The national number in `digits` written with Angola's trunk 0 before it (0923456789), or itself. */
const withoutTrunk = (digits: string) =>
  digits.length === 10 && digits.startsWith("0") && NATIONAL.test(digits.slice(1)) ? digits.slice(1) : digits;

/**
 * The same phone whatever its form: an Angolan number's nine national digits (`923456789`);
 * another country's `+` and its digits (`+351912345678`); what is neither (too short to say), its
 * digits. A key is its own key.
 *
 * An Angolan number is its nine national digits however it was written: with +244, 00244 or 244
 * before it, with Angola's trunk 0 (0923 456 789), with spaces, dashes, dots or parentheses. A
 * number of another country keeps every digit, its country code first, after a `+`, so no
 * foreign number is ever taken for an Angolan one with the same digits.
 */
export function phoneKey(phone: string): string {
  // Only the digits and a + count: spaces, dashes, dots and parentheses are how people group them.
  const compact = phone.replace(/[^0-9+]/g, "");
  const plus = compact.startsWith("+");
  // `+244 …`, `(+244) …` or `00244 …`: the country code follows.
  const international = plus || compact.startsWith("00");
  const digits = compact.replace(/\D/g, "").slice(international && !plus ? 2 : 0);
  if (digits.startsWith(ANGOLA_CODE)) {
    const national = withoutTrunk(digits.slice(ANGOLA_CODE.length));
    if (NATIONAL.test(national)) return national;
  }
  if (international) return `+${digits}`;
  const national = withoutTrunk(digits);
  if (NATIONAL.test(national)) return national;
  // Ten digits or more, not Angolan: a country code written without its +.
  if (digits.length > 9 && !digits.startsWith("0")) return `+${digits}`;
  return digits;
}

/** Whether `key` (a {@link phoneKey}) is an Angolan number. */
export const isAngolanKey = (key: string) => NATIONAL.test(key);

/** E.164: `+`, a country code (never starting with 0), 15 digits at most in all. */
const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * Whether `key` (a {@link phoneKey}) names one phone, so that every form of it the checkout takes
 * has this key and no other: an Angolan number's nine digits, or another country's number in
 * E.164. Not a phone, and refused by the checkout's schema (lib/orders/customer-rules.ts):
 *
 * - a `+` or `00` followed by 0 (`+0244…`, `+00244…`, `000244…`): no country code starts with 0,
 *   and reading past the extra 0 would be guessing which prefix was meant;
 * - a 0 before a country code (`0244 923 456 789`): Angola has no trunk prefix to dial before
 *   `244`, and its digits would as well be a mistyped `00244` as a trunk 0;
 * - Angola's code followed by anything but a national number (`+244 923 45`): a mistyped Angolan
 *   number, which as a "foreign" key would be a second key for that shopper;
 * - seven or eight digits without a country code (a 0 before them or not): no Angolan number
 *   is that short, and no other country can be told;
 * - more than 15 digits after the country's prefix.
 *
 * Refusing rather than reducing these keeps the forms of one phone few (see
 * {@link phoneDigitForms}), and the shopper who typed one is asked to write the number again.
 */
export const isPhoneKey = (key: string) => isAngolanKey(key) || (E164.test(key) && !key.startsWith(`+${ANGOLA_CODE}`));

/**
 * Every form of the phone whose key is `key`, as its digits and `+` only (what is left of a stored
 * phone once its spaces, dashes, dots and parentheses are gone): what the database compares a
 * stored phone with, so that it needs no copy of {@link phoneKey}. Each form's key is `key`, and
 * every form the checkout takes (once its spaces, dashes, dots and parentheses are gone) is among
 * the forms of its key.
 */
export function phoneDigitForms(key: string): string[] {
  if (isAngolanKey(key))
    return ["", "0"].flatMap((trunk) =>
      ["", ANGOLA_CODE, `+${ANGOLA_CODE}`, `00${ANGOLA_CODE}`].map((code) => `${code}${trunk}${key}`),
    );
  if (key.startsWith("+")) {
    const digits = key.slice(1);
    // Without its +, a foreign number of nine digits or fewer would read as an Angolan one or as
    // too short: only a longer one (and no country code starts with 0) may have been written so.
    return [key, `00${digits}`, ...(digits.length > 9 && !digits.startsWith("0") ? [digits] : [])];
  }
  return [key];
}

/**
 * A phone's key as people read it: an Angolan number with its country code and in threes
 * (`+244 923 456 789`), any other as its key (`+351912345678`).
 */
export const readablePhone = (key: string) =>
  isAngolanKey(key) ? `+${ANGOLA_CODE} ${key.slice(0, 3)} ${key.slice(3, 6)} ${key.slice(6)}` : key;
