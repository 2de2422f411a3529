import { isAngolanKey, isPhoneKey, phoneKey } from "../phone";
import { InvalidRecipient } from "./errors";
import type { MessageChannel, OutgoingMessage } from "./types";

/**
 * What every messenger does before sending: the recipient as its phone key (refused when it is
 * not one phone), the caller's mistakes refused, and the text as a real provider's row keeps it.
 */

/** Twilio's limit for one message's body; an SMS this long goes as up to 10 parts. */
export const MAX_TEXT_LENGTH = 1600;

const PURPOSE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MASK = "\u2022";

export interface PreparedMessage {
  /** The phone's key, as the row stores it: `923111222`, `+351912345678`. */
  recipient: string;
  /** The same phone in E.164, as providers take it: `+244923111222`. */
  e164: string;
  channel: MessageChannel;
  purpose: string;
  text: string;
  /** The text with its secret masked (a bullet for each character): what a real provider's row stores. */
  maskedText: string;
}

export function prepareMessage(message: OutgoingMessage): PreparedMessage {
  // The caller's mistakes, not the shopper's: plain errors.
  if (message.channel !== "sms" && message.channel !== "whatsapp") throw new Error("channel must be sms or whatsapp");
  if (!PURPOSE.test(message.purpose) || message.purpose.length > 64)
    throw new Error("purpose must be a short label of lower-case words joined by dashes (sign-in-code)");
  if (message.text.trim() === "") throw new Error("the text is empty");
  if (message.text.length > MAX_TEXT_LENGTH) throw new Error(`the text is longer than ${MAX_TEXT_LENGTH} characters`);
  // A secret the text does not hold (a code spaced in the text, unspaced here) would be stored in clear.
  if (message.secret !== undefined && (message.secret === "" || !message.text.includes(message.secret)))
    throw new Error("the secret must be a part of the text, as it is written there");

  const recipient = phoneKey(message.to);
  if (!isPhoneKey(recipient)) throw new InvalidRecipient();
  return {
    recipient,
    e164: isAngolanKey(recipient) ? `+244${recipient}` : recipient,
    channel: message.channel,
    purpose: message.purpose,
    text: message.text,
    maskedText: message.secret
      ? message.text.replaceAll(message.secret, MASK.repeat(message.secret.length))
      : message.text,
  };
}
