import "server-only";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/known-error";
import { Prisma } from "../generated/prisma/client";
import { refusal, type Refusal } from "../refusal";
import { invalidInput } from "../text-input";
import { isUuid } from "../uuid";
import { MAX_SAVED_ADDRESSES, SAVED_ADDRESS_FIELDS, savedAddressSchema, type SavedAddressField } from "./address-rules";

/**
 * A shopper's saved delivery addresses (/account, and the checkout's "Guardar este endereço"):
 * list, add or edit, delete, choose the default. An account with addresses has exactly one
 * default: the first saved becomes it, and deleting it hands it to the newest left. Every change
 * runs in one transaction that first locks the shopper's row, so two changes of one account (two
 * tabs, a double tap) run one after the other and never leave two defaults or an eleventh
 * address; the partial unique index shopper_addresses_one_default_idx backs the first.
 */

export interface SavedAddress {
  id: string;
  province: string;
  municipality: string;
  neighbourhood: string;
  street: string;
  reference: string;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type AddressRefusal = Refusal<
  "invalid_input" | "not_found" | "too_many_addresses" | "address_conflict",
  SavedAddressField
>;
export type SaveAddressResult = { ok: true; address: SavedAddress } | AddressRefusal;
export type DeleteAddressResult = { ok: true } | AddressRefusal;

const addressFields = {
  id: true,
  province: true,
  municipality: true,
  neighbourhood: true,
  street: true,
  reference: true,
  isDefault: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** The default first, then the newest. */
const listOrder: Prisma.ShopperAddressOrderByWithRelationInput[] = [
  { isDefault: "desc" },
  { createdAt: "desc" },
  { id: "desc" },
];

// One answer for an address that does not exist and one of another account: nobody learns
// which ids exist.
const notFound = (): AddressRefusal => refusal(404, "not_found", "no such address");
const tooMany = (): AddressRefusal =>
  refusal(
    422,
    "too_many_addresses",
    `an account keeps at most ${MAX_SAVED_ADDRESSES} addresses; delete one to add another`,
  );

type Transaction = Prisma.TransactionClient;
type Transactional = Pick<Database, "$transaction">;

export async function listAddresses(db: Pick<Database, "shopperAddress">, shopperId: string): Promise<SavedAddress[]> {
  return db.shopperAddress.findMany({ where: { shopperId }, orderBy: listOrder, select: addressFields });
}

/**
 * Locks the shopper's row for the rest of the transaction; false when there is no such shopper
 * (an account deleted meanwhile). FOR NO KEY UPDATE: it queues this account's other changes but
 * not the key share that inserting a session or an address takes on the row.
 */
async function lockShopper(tx: Transaction, shopperId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>(
    Prisma.sql`SELECT 1 FROM shoppers WHERE id = ${shopperId} FOR NO KEY UPDATE`,
  );
  return rows.length > 0;
}

/** Clears the shopper's default but `exceptId`'s, so `exceptId` can become it. */
const clearDefault = (tx: Transaction, shopperId: string, exceptId?: string) =>
  tx.shopperAddress.updateMany({
    where: { shopperId, isDefault: true, ...(exceptId ? { id: { not: exceptId } } : {}) },
    data: { isDefault: false },
  });

/**
 * `work` in a transaction that holds the shopper's lock. A unique violation on the one default
 * (a change from outside these functions raced the lock) is tried once again, then refused.
 */
async function changeAddresses<T>(
  db: Transactional,
  shopperId: string,
  work: (tx: Transaction) => Promise<T | AddressRefusal>,
): Promise<T | AddressRefusal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => ((await lockShopper(tx, shopperId)) ? work(tx) : notFound()));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= 2)
        return refusal(409, "address_conflict", "the addresses changed at the same moment elsewhere; try again");
    }
  }
}

/**
 * Adds an address (no `id`) or edits the shopper's address `id`. The first address becomes the
 * default, and so does any with `makeDefault`; the default stays the default when edited (an
 * account with addresses always has one). Refused: what the checkout would refuse (400, naming
 * the field), an eleventh address (422), an id that is not one of this shopper's (404).
 */
export async function saveAddress(
  db: Transactional,
  shopperId: string,
  input: unknown,
  options: { id?: string; makeDefault?: boolean } = {},
): Promise<SaveAddressResult> {
  const parsed = savedAddressSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, SAVED_ADDRESS_FIELDS);
  const { id } = options;
  if (id !== undefined && !isUuid(id)) return notFound();
  const data = parsed.data;

  return changeAddresses(db, shopperId, async (tx) => {
    if (id !== undefined) {
      const current = await tx.shopperAddress.findFirst({ where: { id, shopperId }, select: { isDefault: true } });
      if (!current) return notFound();
      if (options.makeDefault && !current.isDefault) await clearDefault(tx, shopperId, id);
      const address = await tx.shopperAddress.update({
        where: { id },
        data: { ...data, ...(options.makeDefault ? { isDefault: true } : {}) },
        select: addressFields,
      });
      return { ok: true as const, address };
    }
    const kept = await tx.shopperAddress.findMany({ where: { shopperId }, select: { isDefault: true } });
    if (kept.length >= MAX_SAVED_ADDRESSES) return tooMany();
    const isDefault = options.makeDefault === true || !kept.some((address) => address.isDefault);
    if (isDefault) await clearDefault(tx, shopperId);
    const address = await tx.shopperAddress.create({ data: { ...data, shopperId, isDefault }, select: addressFields });
    return { ok: true as const, address };
  });
}

/** Makes the shopper's address `id` the default (404 when it is not one of theirs). */
export async function setDefaultAddress(db: Transactional, shopperId: string, id: string): Promise<SaveAddressResult> {
  if (!isUuid(id)) return notFound();
  return changeAddresses(db, shopperId, async (tx) => {
    const current = await tx.shopperAddress.findFirst({ where: { id, shopperId }, select: { isDefault: true } });
    if (!current) return notFound();
    if (!current.isDefault) await clearDefault(tx, shopperId, id);
    const address = await tx.shopperAddress.update({ where: { id }, data: { isDefault: true }, select: addressFields });
    return { ok: true as const, address };
  });
}

/**
 * Deletes the shopper's address `id` (404 when it is not one of theirs); a deleted default passes
 * to the newest left.
 */
export async function deleteAddress(db: Transactional, shopperId: string, id: string): Promise<DeleteAddressResult> {
  if (!isUuid(id)) return notFound();
  return changeAddresses(db, shopperId, async (tx) => {
    const [deleted] = await tx.$queryRaw<{ isDefault: boolean }[]>(Prisma.sql`
DELETE FROM shopper_addresses WHERE id = ${id}::uuid AND shopper_id = ${shopperId}
RETURNING is_default AS "isDefault"`);
    if (!deleted) return notFound();
    if (deleted.isDefault) {
      const newest = await tx.shopperAddress.findFirst({
        where: { shopperId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: { id: true },
      });
      if (newest) await tx.shopperAddress.update({ where: { id: newest.id }, data: { isDefault: true } });
    }
    return { ok: true as const };
  });
}
