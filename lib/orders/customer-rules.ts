import { z } from "../browser-zod";
import { customerNameSchema } from "./customer-name-rules";
import { NIF_INPUT_MAX, NIF_RULE, nifKind, normaliseNif } from "../nif";
import { PHONE_DIGITS, isPhoneKey, phoneKey } from "../phone";

/**
 * Who a shopper is to the shop: a name, a phone, an optional e-mail and an optional NIF, as the
 * checkout takes them (and the sign-in by phone takes the phone). Safe to load in the browser (the
 * checkout form checks the customer with it before sending).
 */

export const customerSchema = z.object({
  /** A name and nothing else (./customer-name-rules.ts: no web or e-mail address, phone number, < or >). */
  name: customerNameSchema,
  // Any way of writing one (lib/phone.ts phoneKey): +244 923 456 789, 0923-456-789, (+244) 923.456.789,
  // 00351 912 345 678. Kept as typed; every comparison goes through phoneKey, so what would not
  // have one phone's key (+0244…, 0244…, +244 923 45: lib/phone.ts isPhoneKey) is refused.
  phone: z
    .string()
    .trim()
    .regex(/^\(?\+?[0-9][0-9 ().-]{5,22}[0-9]$/, { error: "must be a phone number such as +244 923 456 789" })
    .refine(
      (phone) => {
        const digits = phone.replace(/\D/g, "").length;
        return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
      },
      { error: `must be a phone number of ${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits` },
    )
    .refine((phone) => isPhoneKey(phoneKey(phone)), {
      error:
        "must be an Angolan number such as 923 456 789 or +244 923 456 789, or another country's with its code, such as +351 912 345 678",
      // One message for what is not a phone at all: the checks above have said it.
      when: (payload) => payload.issues.length === 0,
    }),
  /** Optional: where the shopper's own mails go (the confirmation, each fulfilment step). */
  email: z
    .string()
    .trim()
    .max(254, { error: "is longer than 254 characters" })
    .pipe(z.email({ error: "must be an email address such as nome@exemplo.ao" }))
    .optional(),
  /**
   * Optional: the buyer's NIF for their receipt (lib/nif.ts: a person's or a company's), stored
   * normalised. Empty, or only separators, means none.
   */
  nif: z
    .string()
    .max(NIF_INPUT_MAX, { error: `is longer than ${NIF_INPUT_MAX} characters` })
    .transform(normaliseNif)
    .refine((nif) => nif === "" || nifKind(nif) !== null, { error: NIF_RULE })
    .transform((nif) => nif || undefined)
    .optional(),
});

export type Customer = z.output<typeof customerSchema>;
