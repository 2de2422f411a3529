import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { customerNameSchema } from "../orders/customer-name-rules";
import { customerSchema } from "../orders/customer-rules";
import { refusal, type Refusal } from "../refusal";
import { invalidInput } from "../text-input";

/**
 * What a shopper keeps in their account besides the phone (/account): a name, an e-mail for the
 * shop's mails and a NIF for receipts, which the checkout fills in, each under the checkout's own
 * rules, each optional; and deleting the account. The orders an account's phone placed are the
 * shop's records, not the account's: they have no link to it and stay.
 */

export interface ShopperProfile {
  /** The phone's key (lib/phone.ts phoneKey), verified by the sign-in code. */
  phoneNumber: string | null;
  /** "" when the shopper gave none. */
  name: string;
  contactEmail: string | null;
  /** Normalised (lib/nif.ts). */
  nif: string | null;
}

export const PROFILE_FIELDS = ["name", "email", "nif"] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/** A field left out stays as it is; empty (or only spaces), or null, clears it. */
const clearable = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (value === null || (typeof value === "string" && value.trim() === "") ? null : value),
    schema.nullable().optional(),
  );

/** The checkout's rules for a name, an e-mail and a NIF (lib/orders/customer-rules.ts). */
export const shopperProfileSchema = z.object({
  name: clearable(customerNameSchema),
  email: clearable(customerSchema.shape.email),
  nif: clearable(customerSchema.shape.nif),
});

export type ProfileRefusal = Refusal<"invalid_input" | "not_found", ProfileField>;
export type UpdateProfileResult = { ok: true; profile: ShopperProfile } | ProfileRefusal;

const profileFields = { phoneNumber: true, name: true, contactEmail: true, nif: true } as const;
const noShopper = (): ProfileRefusal => refusal(404, "not_found", "no such account");

export async function shopperProfile(db: Pick<Database, "shopper">, shopperId: string): Promise<ShopperProfile | null> {
  return db.shopper.findUnique({ where: { id: shopperId }, select: profileFields });
}

/**
 * Changes the fields `input` names (`name`, `email`, `nif`); refused as the checkout refuses them
 * (400, naming the field).
 */
export async function updateShopperProfile(
  db: Pick<Database, "shopper">,
  shopperId: string,
  input: unknown,
): Promise<UpdateProfileResult> {
  const parsed = shopperProfileSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, PROFILE_FIELDS);
  const { name, email, nif } = parsed.data;
  // updateMany: an account deleted meanwhile is a count of 0, not a thrown (and logged) error.
  const { count } = await db.shopper.updateMany({
    where: { id: shopperId },
    data: {
      // The column is better-auth's and never null: no name is "".
      ...(name !== undefined ? { name: name ?? "" } : {}),
      ...(email !== undefined ? { contactEmail: email } : {}),
      ...(nif !== undefined ? { nif: nif ?? null } : {}),
    },
  });
  const profile = count > 0 ? await shopperProfile(db, shopperId) : null;
  return profile ? { ok: true, profile } : noShopper();
}

/**
 * Better-auth's names for the codes it keeps for a phone (its phone-number plugin): the sign-in
 * code and a password reset's, which a phone account never asks for but is cleared all the same.
 */
const codeIdentifiers = (phoneNumber: string) => [
  `phone-number-otp-${phoneNumber}`,
  `phone-number-reset-${phoneNumber}`,
];

/**
 * Deletes the account: its row, and with it (ON DELETE CASCADE) its sessions, logins and saved
 * addresses, so every signed-in browser is signed out; and any code still pending for its phone.
 * The orders its phone placed stay, as the shop's records. 404 when there is no such account.
 */
export async function deleteShopper(
  db: Pick<Database, "$transaction">,
  shopperId: string,
): Promise<{ ok: true } | ProfileRefusal> {
  return db.$transaction(async (tx) => {
    const [deleted] = await tx.$queryRaw<{ phoneNumber: string | null }[]>(
      Prisma.sql`DELETE FROM shoppers WHERE id = ${shopperId} RETURNING phone_number AS "phoneNumber"`,
    );
    if (!deleted) return noShopper();
    if (deleted.phoneNumber) {
      await tx.shopperVerification.deleteMany({ where: { identifier: { in: codeIdentifiers(deleted.phoneNumber) } } });
      // The sign-in codes sent to the phone were the account's only: they go with it. Other
      // messages (none today) would be the shop's records, like its orders.
      await tx.message.deleteMany({ where: { recipient: deleted.phoneNumber, purpose: "sign-in-code" } });
    }
    return { ok: true as const };
  });
}
