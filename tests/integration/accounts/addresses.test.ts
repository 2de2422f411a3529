import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  deleteAddress,
  listAddresses,
  saveAddress,
  setDefaultAddress,
  type SaveAddressResult,
} from "@/lib/accounts/addresses";
import { MAX_SAVED_ADDRESSES } from "@/lib/accounts/address-rules";
import { db } from "@/lib/db/client";
import { insertTestShopper } from "../../../harness/support/shoppers";

// A shopper's saved addresses (lib/accounts/addresses.ts) against the suite's real database
// (PostgreSQL, or PGlite): the checkout's rules, ten at most, exactly one default however the
// changes interleave, and nobody reaching another account's addresses. Each test has an account
// of its own.

const address = (street = "Rua 5, casa 12") => ({
  province: "Luanda",
  municipality: "Talatona",
  neighbourhood: "Camama",
  street,
  reference: "Ao lado da escola",
});

function saved(result: SaveAddressResult) {
  if (!result.ok) throw new Error(`expected an address, got ${result.code}: ${result.message}`);
  return result.address;
}

const defaultsOf = async (shopperId: string) =>
  (await db().shopperAddress.findMany({ where: { shopperId, isDefault: true }, select: { id: true } })).map(
    (row) => row.id,
  );

/** Makes `id` the newest, `minutesAgo` old, so "newest" never rests on two rows' milliseconds. */
const age = (id: string, minutesAgo: number) =>
  db().shopperAddress.update({ where: { id }, data: { createdAt: new Date(Date.now() - minutesAgo * 60_000) } });

describe("saveAddress", () => {
  it("saves an address, the first becoming the default, and lists the default first, then the newest", async () => {
    const shopper = await insertTestShopper(db());
    const first = saved(await saveAddress(db(), shopper.id, address("Rua 1")));
    expect(first).toMatchObject({ ...address("Rua 1"), isDefault: true });
    const second = saved(await saveAddress(db(), shopper.id, address("Rua 2")));
    const third = saved(await saveAddress(db(), shopper.id, address("Rua 3")));
    expect([second.isDefault, third.isDefault]).toEqual([false, false]);
    await age(first.id, 30);
    await age(second.id, 20);
    await age(third.id, 10);

    expect((await listAddresses(db(), shopper.id)).map((row) => row.street)).toEqual(["Rua 1", "Rua 3", "Rua 2"]);
    expect(await listAddresses(db(), (await insertTestShopper(db())).id)).toEqual([]);
  });

  it("stores the address trimmed, as the checkout would", async () => {
    const shopper = await insertTestShopper(db());
    const row = saved(await saveAddress(db(), shopper.id, { ...address(), street: "  Rua 7 ", reference: " Igreja " }));
    expect(row).toMatchObject({ street: "Rua 7", reference: "Igreja" });
  });

  it("edits an address in place, keeping or moving the default as asked", async () => {
    const shopper = await insertTestShopper(db());
    const first = saved(await saveAddress(db(), shopper.id, address("Rua 1")));
    const second = saved(await saveAddress(db(), shopper.id, address("Rua 2")));

    const edited = saved(await saveAddress(db(), shopper.id, address("Rua 2A"), { id: second.id }));
    expect(edited).toMatchObject({ id: second.id, street: "Rua 2A", isDefault: false });
    // The default, edited without makeDefault, stays the default.
    expect(saved(await saveAddress(db(), shopper.id, address("Rua 1A"), { id: first.id })).isDefault).toBe(true);

    saved(await saveAddress(db(), shopper.id, address("Rua 2B"), { id: second.id, makeDefault: true }));
    expect(await defaultsOf(shopper.id)).toEqual([second.id]);
    const third = saved(await saveAddress(db(), shopper.id, address("Rua 3"), { makeDefault: true }));
    expect(await defaultsOf(shopper.id)).toEqual([third.id]);
    expect(await db().shopperAddress.count({ where: { shopperId: shopper.id } })).toBe(3);
  });

  it.each([
    ["a missing part", { ...address(), municipality: undefined }, "municipality"],
    ["an empty reference", { ...address(), reference: " " }, "reference"],
    ["a street too long", { ...address(), street: "x".repeat(161) }, "street"],
    ["a NUL character", { ...address(), province: "Lu\u0000anda" }, "province"],
    ["not an object", "Rua 5", undefined],
  ])("refuses %s with a 400 naming the field, writing nothing", async (_name, input, field) => {
    const shopper = await insertTestShopper(db());
    const result = await saveAddress(db(), shopper.id, input);
    expect(result).toMatchObject({ ok: false, status: 400, code: "invalid_input" });
    if (!result.ok) expect(result.field).toBe(field);
    expect(await listAddresses(db(), shopper.id)).toEqual([]);
  });

  it(`keeps ${MAX_SAVED_ADDRESSES} addresses and refuses another, while an edit still goes through`, async () => {
    const shopper = await insertTestShopper(db());
    for (let n = 1; n <= MAX_SAVED_ADDRESSES; n++) saved(await saveAddress(db(), shopper.id, address(`Rua ${n}`)));
    expect(await saveAddress(db(), shopper.id, address("Rua 11"))).toMatchObject({
      ok: false,
      status: 422,
      code: "too_many_addresses",
    });
    const [any] = await listAddresses(db(), shopper.id);
    saved(await saveAddress(db(), shopper.id, address("Rua editada"), { id: any!.id }));
    expect(await db().shopperAddress.count({ where: { shopperId: shopper.id } })).toBe(MAX_SAVED_ADDRESSES);
  });

  it("refuses an eleventh even when two adds race for the tenth place", async () => {
    const shopper = await insertTestShopper(db());
    for (let n = 1; n < MAX_SAVED_ADDRESSES; n++) saved(await saveAddress(db(), shopper.id, address(`Rua ${n}`)));
    const results = await Promise.all([
      saveAddress(db(), shopper.id, address("Rua A")),
      saveAddress(db(), shopper.id, address("Rua B")),
    ]);
    expect(results.map((result) => (result.ok ? "saved" : result.code)).sort()).toEqual([
      "saved",
      "too_many_addresses",
    ]);
    expect(await db().shopperAddress.count({ where: { shopperId: shopper.id } })).toBe(MAX_SAVED_ADDRESSES);
  });
});

describe("one default", () => {
  it("holds when two setDefaultAddress race", async () => {
    const shopper = await insertTestShopper(db());
    const rows = [];
    for (let n = 1; n <= 4; n++) rows.push(saved(await saveAddress(db(), shopper.id, address(`Rua ${n}`))));
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all([
        setDefaultAddress(db(), shopper.id, rows[1]!.id),
        setDefaultAddress(db(), shopper.id, rows[2]!.id),
        setDefaultAddress(db(), shopper.id, rows[3]!.id),
      ]);
      expect(results.every((result) => result.ok)).toBe(true);
      const defaults = await defaultsOf(shopper.id);
      expect(defaults).toHaveLength(1);
      expect([rows[1]!.id, rows[2]!.id, rows[3]!.id]).toContain(defaults[0]);
    }
  });

  it("holds when two saves with makeDefault race, and when the first two adds race", async () => {
    const shopper = await insertTestShopper(db());
    const [a, b] = await Promise.all([
      saveAddress(db(), shopper.id, address("Rua A")),
      saveAddress(db(), shopper.id, address("Rua B")),
    ]);
    // One of the two came first and became the default.
    expect([saved(a!).isDefault, saved(b!).isDefault].sort()).toEqual([false, true]);
    await Promise.all([
      saveAddress(db(), shopper.id, address("Rua C"), { makeDefault: true }),
      saveAddress(db(), shopper.id, address("Rua D"), { makeDefault: true }),
      saveAddress(db(), shopper.id, address("Rua A2"), { id: saved(a!).id, makeDefault: true }),
    ]);
    expect(await defaultsOf(shopper.id)).toHaveLength(1);
    expect(await db().shopperAddress.count({ where: { shopperId: shopper.id } })).toBe(4);
  });

  it("is kept by the database itself: a second default row is refused", async () => {
    const shopper = await insertTestShopper(db());
    saved(await saveAddress(db(), shopper.id, address("Rua 1")));
    await expect(
      db().shopperAddress.create({ data: { shopperId: shopper.id, ...address("Rua 2"), isDefault: true } }),
    ).rejects.toThrow();
  });
});

describe("deleteAddress", () => {
  it("deleting the default makes the newest left the default", async () => {
    const shopper = await insertTestShopper(db());
    const first = saved(await saveAddress(db(), shopper.id, address("Rua 1")));
    const second = saved(await saveAddress(db(), shopper.id, address("Rua 2")));
    const third = saved(await saveAddress(db(), shopper.id, address("Rua 3")));
    await age(first.id, 30);
    await age(second.id, 10);
    await age(third.id, 20);

    expect(await deleteAddress(db(), shopper.id, first.id)).toEqual({ ok: true });
    expect(await defaultsOf(shopper.id)).toEqual([second.id]);
    // Deleting one that is not the default leaves the default alone.
    expect(await deleteAddress(db(), shopper.id, third.id)).toEqual({ ok: true });
    expect(await defaultsOf(shopper.id)).toEqual([second.id]);
    expect(await deleteAddress(db(), shopper.id, second.id)).toEqual({ ok: true });
    expect(await listAddresses(db(), shopper.id)).toEqual([]);
    // The next address saved is the default again.
    expect(saved(await saveAddress(db(), shopper.id, address("Rua 4"))).isDefault).toBe(true);
  });

  it("answers an address already deleted with not_found", async () => {
    const shopper = await insertTestShopper(db());
    const row = saved(await saveAddress(db(), shopper.id, address()));
    expect(await deleteAddress(db(), shopper.id, row.id)).toEqual({ ok: true });
    expect(await deleteAddress(db(), shopper.id, row.id)).toMatchObject({ ok: false, status: 404, code: "not_found" });
  });
});

describe("another account's addresses", () => {
  it("are not found: not edited, not made default, not deleted, and answered as an unknown id", async () => {
    const owner = await insertTestShopper(db());
    const stranger = await insertTestShopper(db());
    const theirs = saved(await saveAddress(db(), owner.id, address("Rua do dono")));
    saved(await saveAddress(db(), stranger.id, address("Rua do outro")));

    const unknown = await saveAddress(db(), stranger.id, address(), { id: randomUUID() });
    expect(unknown).toMatchObject({ ok: false, status: 404, code: "not_found" });
    for (const result of [
      await saveAddress(db(), stranger.id, address("Rua roubada"), { id: theirs.id }),
      await saveAddress(db(), stranger.id, address("Rua roubada"), { id: theirs.id, makeDefault: true }),
      await setDefaultAddress(db(), stranger.id, theirs.id),
      await deleteAddress(db(), stranger.id, theirs.id),
    ])
      expect(result).toEqual(unknown);

    expect(await listAddresses(db(), owner.id)).toEqual([theirs]);
    expect((await listAddresses(db(), stranger.id)).map((row) => row.street)).toEqual(["Rua do outro"]);
  });

  it("an id that is not a UUID, or an account that is gone, is not found either", async () => {
    const shopper = await insertTestShopper(db());
    for (const result of [
      await saveAddress(db(), shopper.id, address(), { id: "1; DROP TABLE shoppers" }),
      await setDefaultAddress(db(), shopper.id, "not-an-id"),
      await deleteAddress(db(), shopper.id, ""),
      await saveAddress(db(), randomUUID(), address()),
    ])
      expect(result).toMatchObject({ ok: false, status: 404, code: "not_found" });
  });
});
