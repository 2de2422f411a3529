import { isAngolanKey, phoneKey } from "./phone";

/**
 * WhatsApp as a channel, by plain links (https://wa.me/<digits>?text=…): no script, no API. The
 * link to a number (or to a chat the person picks) with a prefilled text, and a customer's phone
 * as wa.me's digits. Pure, so the browser may load it.
 */

/** The chat with `digits` (country code first, no +) with `text` typed in, ready to send. */
export const whatsappLink = (digits: string, text: string): string =>
  `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;

/** `text` typed in, ready to send to whichever chat the person picks (wa.me without a number). */
export const whatsappShareLink = (text: string): string => whatsappLink("", text);

/** Angola's country code, before a national number's nine digits. */
const ANGOLA_CODE = "244";
/** E.164's bounds, without the +: wa.me takes nothing else. */
const INTERNATIONAL = /^[1-9][0-9]{7,14}$/;

/**
 * A customer's phone as typed at checkout, as wa.me's digits: an Angolan number (in any form
 * lib/phone.ts knows) is 244 and its nine digits, another country's (written with + or 00) its
 * digits; anything else is null, and gets no link rather than a chat with a stranger.
 */
export function customerWhatsappDigits(phone: string): string | null {
  const key = phoneKey(phone);
  if (isAngolanKey(key)) return `${ANGOLA_CODE}${key}`;
  if (!key.startsWith("+")) return null;
  const digits = key.slice(1);
  return INTERNATIONAL.test(digits) ? digits : null;
}
