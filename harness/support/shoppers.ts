import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/client";

/**
 * A shopper's account as better-auth's phone sign-in leaves it (lib/accounts/): a row of
 * `shoppers` under the phone's key, its placeholder e-mail under `.invalid`, for tests of what the
 * account's pages do with it.
 */
export async function insertTestShopper(db: Pick<Database, "shopper">, phoneNumber = randomPhoneKey()) {
  const id = randomUUID();
  return db.shopper.create({
    data: { id, name: "", email: `${id}@phone.invalid`, phoneNumber, phoneNumberVerified: true },
  });
}

/** An Angolan phone's key no other test uses (lib/phone.ts phoneKey): `9` and eight random digits. */
export const randomPhoneKey = () => `9${String(Math.floor(Math.random() * 100_000_000)).padStart(8, "0")}`;
