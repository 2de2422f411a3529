import { randomInt, randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { POST as signInRoute } from "@/app/api/auth/[...all]/route";
import { POST as deleteAccount } from "@/app/api/account/delete/route";
import { POST as buyAgainRoute } from "@/app/api/account/buy-again/route";
import { POST as createAddress } from "@/app/api/account/addresses/route";
import { POST as updateAddress } from "@/app/api/account/addresses/[id]/route";
import { POST as deleteAddressRoute } from "@/app/api/account/addresses/[id]/delete/route";
import { POST as makeDefault } from "@/app/api/account/addresses/[id]/default/route";
import { POST as updateProfile } from "@/app/api/account/profile/route";
import { GET as cartRoute } from "@/app/api/cart/route";
import { getCart } from "@/lib/cart/cart";
import { CART_COOKIE } from "@/lib/cart/shopper-cookies";
import { db } from "@/lib/db/client";
import { insertTestProduct, newExternalTransactionId } from "../../../harness/support/orders";
import { signInThroughRoute } from "../../../harness/support/shoppers";

// The signed-in shopper's routes under /api/account as Next calls them, each with a session made
// by the real sign-in (a code from the outbox, checked by better-auth): only from the shop's own
// pages, only signed in, bad input refused with nothing changed, another account's address as
// unknown as none, "Comprar de novo" into this browser's cart, and deletion ending the session
// while the orders stay. GET /api/cart says whether a shopper is signed in.

const APP_URL = "http://localhost:3000";

const newPhone = () => `9${randomInt(10_000_000, 99_999_999)}`;

const ADDRESS = {
  province: "Luanda",
  municipality: "Belas",
  neighbourhood: "Talatona",
  street: "Rua 12, casa 4",
  reference: "Ao lado da farmácia",
};

/** A shopper signed in through /api/auth with the outbox's code: its phone key, session cookie and account id. */
async function signIn(phone = newPhone()) {
  const { cookie, shopperId } = await signInThroughRoute(db(), signInRoute, phone, APP_URL);
  return { phone, cookie, id: shopperId };
}

interface Call {
  cookie?: string;
  origin?: string | null;
  body?: unknown;
  form?: Record<string, string>;
}

/** A POST to `path` as a browser page of the shop would send it (JSON, or a form's urlencoded body). */
function post(path: string, call: Call = {}) {
  const headers: Record<string, string> = {
    "Content-Type": call.form ? "application/x-www-form-urlencoded" : "application/json",
  };
  if (call.origin !== null) headers.Origin = call.origin ?? APP_URL;
  if (call.cookie) headers.Cookie = call.cookie;
  const body = call.form ? new URLSearchParams(call.form).toString() : JSON.stringify(call.body ?? {});
  return new NextRequest(`${APP_URL}${path}`, { method: "POST", headers, body });
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const addressesOf = (shopperId: string) =>
  db().shopperAddress.findMany({ where: { shopperId }, orderBy: { createdAt: "asc" } });

/** An order placed with `phone` as typed, one line of a product of its own. */
async function orderOf(phone: string, quantity = 2) {
  const product = await insertTestProduct({ stock: 10 });
  const order = await db().order.create({
    data: {
      externalTransactionId: newExternalTransactionId(),
      status: "CON",
      finalizedAt: new Date(),
      amountAoa: product.priceAoa * quantity,
      clientId: `shopper_${randomUUID()}`,
      customerPhone: phone,
      lines: {
        create: {
          productId: product.id,
          variantId: product.variantId,
          productName: product.name,
          unitPriceAoa: product.priceAoa,
          quantity,
        },
      },
    },
  });
  return { order, product };
}

describe("the account's routes", () => {
  it("refuse a signed-out client: 401 for JSON, the sign-in (coming back) for a form", async () => {
    const id = randomUUID();
    const calls: [string, Promise<Response>][] = [
      ["profile", updateProfile(post("/api/account/profile", { body: { name: "Ana" } }))],
      ["addresses", createAddress(post("/api/account/addresses", { body: ADDRESS }))],
      ["address", updateAddress(post(`/api/account/addresses/${id}`, { body: ADDRESS }), params(id))],
      ["delete address", deleteAddressRoute(post(`/api/account/addresses/${id}/delete`), params(id))],
      ["default", makeDefault(post(`/api/account/addresses/${id}/default`), params(id))],
      ["buy again", buyAgainRoute(post("/api/account/buy-again", { body: { externalTransactionId: "x" } }))],
      ["delete", deleteAccount(post("/api/account/delete"))],
    ];
    for (const [name, answer] of calls) {
      const response = await answer;
      expect(response.status, name).toBe(401);
      expect((await json(response)).error.code, name).toBe("signed_out");
    }
    // A stale cookie is no session either.
    const stale = await updateProfile(
      post("/api/account/profile", { cookie: "shop.session_token=nope.nope", body: { name: "Ana" } }),
    );
    expect(stale.status).toBe(401);

    const form = await createAddress(post("/api/account/addresses", { form: ADDRESS }));
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/account/sign-in?next=%2Faccount%2Faddresses%2Fnew");
  });

  it("refuse a request from another site, and change nothing", async () => {
    const { cookie, id } = await signIn();
    const refused = await updateProfile(
      post("/api/account/profile", { cookie, origin: "https://evil.example", body: { name: "Eva" } }),
    );
    expect(refused.status).toBe(403);
    const deleted = await deleteAccount(post("/api/account/delete", { cookie, origin: "https://evil.example" }));
    expect(deleted.status).toBe(403);
    const shopper = await db().shopper.findUniqueOrThrow({ where: { id } });
    expect(shopper.name).toBe("");
  });

  it("keep the shopper's details under the checkout's rules; bad input is 400 and changes nothing", async () => {
    const { cookie, id } = await signIn();
    const saved = await updateProfile(
      post("/api/account/profile", { cookie, body: { name: "Ana Silva", email: "ana@exemplo.ao", nif: "" } }),
    );
    expect(saved.status).toBe(200);
    expect((await json(saved)).profile).toMatchObject({ name: "Ana Silva", contactEmail: "ana@exemplo.ao", nif: null });

    const bad = await updateProfile(post("/api/account/profile", { cookie, body: { name: "Eva", email: "not-mail" } }));
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe("invalid_input");
    const notJson = await updateProfile(
      new NextRequest(`${APP_URL}/api/account/profile`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: APP_URL, Cookie: cookie },
        body: "{",
      }),
    );
    expect(notJson.status).toBe(400);
    const array = await updateProfile(post("/api/account/profile", { cookie, body: ["name"] }));
    expect(array.status).toBe(400);
    expect(await db().shopper.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: "Ana Silva",
      contactEmail: "ana@exemplo.ao",
    });

    // A form goes back to its part of the page, naming the field; saved, it says so.
    const form = await updateProfile(post("/api/account/profile", { cookie, form: { name: "Eva", email: "x" } }));
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/account?profileError=invalid_input&profileField=email#profile");
    const done = await updateProfile(post("/api/account/profile", { cookie, form: { name: "Eva", nif: "" } }));
    expect(done.headers.get("location")).toBe("/account?profile=saved#profile");
    expect((await db().shopper.findUniqueOrThrow({ where: { id } })).name).toBe("Eva");
  });

  it("add, change, make default and delete saved addresses; bad input is 400 and saves nothing", async () => {
    const { cookie, id } = await signIn();
    const bad = await createAddress(post("/api/account/addresses", { cookie, body: { ...ADDRESS, street: "" } }));
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatchObject({ code: "invalid_input" });
    const badForm = await createAddress(
      post("/api/account/addresses", { cookie, form: { ...ADDRESS, reference: " " } }),
    );
    expect(badForm.headers.get("location")).toBe("/account/addresses/new?error=invalid_input&field=reference");
    expect(await addressesOf(id)).toEqual([]);

    const first = await createAddress(post("/api/account/addresses", { cookie, body: ADDRESS }));
    expect(first.status).toBe(201);
    const firstId = (await json(first)).address.id as string;
    const second = await createAddress(
      post("/api/account/addresses", { cookie, form: { ...ADDRESS, street: "Rua 2", makeDefault: "on" } }),
    );
    expect(second.status).toBe(303);
    expect(second.headers.get("location")).toBe("/account?address=saved#addresses");
    const [, secondRow] = await addressesOf(id);
    expect(secondRow).toMatchObject({ street: "Rua 2", isDefault: true });

    const changed = await updateAddress(
      post(`/api/account/addresses/${firstId}`, { cookie, body: { ...ADDRESS, street: "Rua 3" } }),
      params(firstId),
    );
    expect(changed.status).toBe(200);
    expect((await json(changed)).address).toMatchObject({ street: "Rua 3", isDefault: false });
    const badChange = await updateAddress(
      post(`/api/account/addresses/${firstId}`, { cookie, body: { ...ADDRESS, province: "" } }),
      params(firstId),
    );
    expect(badChange.status).toBe(400);

    const made = await makeDefault(
      post(`/api/account/addresses/${firstId}/default`, { cookie, form: {} }),
      params(firstId),
    );
    expect(made.headers.get("location")).toBe("/account?address=made_default#addresses");
    const removed = await deleteAddressRoute(
      post(`/api/account/addresses/${firstId}/delete`, { cookie }),
      params(firstId),
    );
    expect(removed.status).toBe(200);
    expect((await addressesOf(id)).map((address) => [address.street, address.isDefault])).toEqual([["Rua 2", true]]);
  });

  it("answer another account's address as an unknown one, and leave it as it was", async () => {
    const owner = await signIn();
    const other = await signIn();
    const created = await createAddress(post("/api/account/addresses", { cookie: owner.cookie, body: ADDRESS }));
    const addressId = (await json(created)).address.id as string;
    const asOther = { cookie: other.cookie };
    const answers = [
      await updateAddress(
        post(`/api/account/addresses/${addressId}`, { ...asOther, body: { ...ADDRESS, street: "Rua errada" } }),
        params(addressId),
      ),
      await makeDefault(post(`/api/account/addresses/${addressId}/default`, asOther), params(addressId)),
      await deleteAddressRoute(post(`/api/account/addresses/${addressId}/delete`, asOther), params(addressId)),
      await deleteAddressRoute(post(`/api/account/addresses/not-an-id/delete`, asOther), params("not-an-id")),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect((await json(answer)).error.code).toBe("not_found");
    }
    expect(await addressesOf(owner.id)).toEqual([expect.objectContaining({ street: ADDRESS.street, isDefault: true })]);
  });

  it("buy again: the order's lines into this browser's cart, its cookie set; another phone's order is unknown", async () => {
    const { phone, cookie } = await signIn();
    // Placed as a guest, before the account, the phone written another way.
    const { order, product } = await orderOf(`0${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`, 2);

    const answer = await buyAgainRoute(
      post("/api/account/buy-again", { cookie, body: { externalTransactionId: order.externalTransactionId } }),
    );
    expect(answer.status).toBe(200);
    const body = await json(answer);
    expect(body.added).toEqual([expect.objectContaining({ variantId: product.variantId, quantity: 2 })]);
    expect(body.unavailable).toEqual([]);
    const cartCookie = answer.headers.getSetCookie().find((value) => value.startsWith(`${CART_COOKIE}=`))!;
    const cartId = /^cart_id=([^;]+)/.exec(cartCookie)![1]!;
    expect(cartCookie).toMatch(/HttpOnly/i);
    expect((await getCart(db(), cartId))!.lines).toEqual([
      expect.objectContaining({ variantId: product.variantId, quantity: 2 }),
    ]);

    // A form, with this cart: to the cart, saying what went in; the same cart, two more units.
    const form = await buyAgainRoute(
      post("/api/account/buy-again", {
        cookie: `${cookie}; ${CART_COOKIE}=${cartId}`,
        form: { externalTransactionId: order.externalTransactionId },
      }),
    );
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`/cart?notice=bought_again&order=${order.externalTransactionId}&added=2`);
    expect((await getCart(db(), cartId))!.lines[0]!.quantity).toBe(4);

    const other = await orderOf(newPhone());
    const unknown = await buyAgainRoute(
      post("/api/account/buy-again", { cookie, body: { externalTransactionId: other.order.externalTransactionId } }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.headers.getSetCookie()).toEqual([]);
    const missing = await buyAgainRoute(post("/api/account/buy-again", { cookie, body: {} }));
    expect(missing.status).toBe(400);
  });

  it("GET /api/cart says whether a shopper is signed in", async () => {
    const { cookie } = await signIn();
    const cart = (cookieHeader?: string) =>
      cartRoute(new NextRequest(`${APP_URL}/api/cart`, cookieHeader ? { headers: { Cookie: cookieHeader } } : {}));
    expect(await json(await cart(cookie))).toEqual({ itemCount: 0, signedIn: true });
    expect(await json(await cart())).toEqual({ itemCount: 0, signedIn: false });
    expect(await json(await cart("shop.session_token=nope.nope"))).toEqual({ itemCount: 0, signedIn: false });
  });

  it("delete the account: its addresses and sessions go, the cookie is expired, the orders stay", async () => {
    const { phone, cookie, id } = await signIn();
    const { order } = await orderOf(phone);
    await createAddress(post("/api/account/addresses", { cookie, body: ADDRESS }));

    const answer = await deleteAccount(post("/api/account/delete", { cookie }));
    expect(answer.status).toBe(200);
    expect(await json(answer)).toEqual({ deleted: true });
    const expired = answer.headers.getSetCookie().find((value) => value.startsWith("shop.session_token="))!;
    expect(expired).toMatch(/Max-Age=0/i);

    expect(await db().shopper.findUnique({ where: { id } })).toBeNull();
    expect(await db().shopperSession.count({ where: { shopperId: id } })).toBe(0);
    expect(await addressesOf(id)).toEqual([]);
    expect(await db().order.findUnique({ where: { id: order.id } })).not.toBeNull();
    // The old cookie signs nobody in.
    const after = await updateProfile(post("/api/account/profile", { cookie, body: { name: "Ana" } }));
    expect(after.status).toBe(401);
  });
});
