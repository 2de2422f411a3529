/**
 * The simulated shoppers: each arrives at a random moment of the run, looks at the catalogue,
 * checks out through the shop's real HTTP API (POST /api/pay/create-order as the PayButton
 * sends it, with a shopper cookie and a pickup point), then pays, or not, the way the shopper
 * and the service would (the sandbox's control API: approve, a bank reference paid in time or
 * late, cancel, expire, nothing) with webhooks duplicated, delayed, redelivered and reordered.
 * Afterwards it reads its order's status as the success page does. It owns the shoppers'
 * choices and the tally of what they did; it checks nothing.
 */
import type { ControlClient } from "pay-sandbox/client";
import type { HttpLog } from "./http-log";

export interface CatalogueVariant {
  productId: string;
  variantId: string;
  scarce: boolean;
}

export interface ShopperWorld {
  /** The app instances' base URLs; a shopper tries another after a refused connection. */
  instances: string[];
  variants: CatalogueVariant[];
  pickupPointId: string;
  promoCodes: string[];
  holdSeconds: number;
  control: ControlClient;
  log: HttpLog;
  random: () => number;
  /** Stops new retries at the end of the run's patience. */
  deadline: number;
}

export type Plan = "express" | "bank_in_time" | "bank_late" | "bank_expired" | "cancel" | "abandon";

export interface ShopperOutcome {
  plan: Plan;
  /** What create-order ended with: `order`, or the refusal's code, or `failed` (no answer after retries). */
  checkout: string;
  externalTransactionId?: string;
  usedPromo: boolean;
  /** The last status the shop's status route answered, if it was asked. */
  lastStatus?: string;
  /** Webhook shapes asked of the sandbox for this order (duplicate, late, redeliver, out_of_order). */
  shapes: string[];
  /** A control call the sandbox refused (a final order), e.g. a late payment of an order it expired. */
  refusedByService?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One shopper's visit, start to end. Never throws: what went wrong is in the outcome and the log. */
export async function shop(world: ShopperWorld, index: number): Promise<ShopperOutcome> {
  const { random } = world;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const roll = random();
  const plan: Plan =
    roll < 0.35
      ? "express"
      : roll < 0.5
        ? "bank_in_time"
        : roll < 0.65
          ? "bank_late"
          : roll < 0.72
            ? "bank_expired"
            : roll < 0.8
              ? "cancel"
              : "abandon";
  const outcome: ShopperOutcome = { plan, checkout: "none", usedPromo: false, shapes: [] };
  const browser = new Browser(world, index);

  await browser.get("/api/products", "products");
  // Most shoppers want one of the scarce variants, some two lines.
  const scarce = world.variants.filter((variant) => variant.scarce);
  const plenty = world.variants.filter((variant) => !variant.scarce);
  const lines = new Map<string, { productId: string; variantId: string; quantity: number }>();
  const add = (variant: CatalogueVariant, quantity: number) =>
    lines.set(variant.variantId, { productId: variant.productId, variantId: variant.variantId, quantity });
  if (random() < 0.7 && scarce.length > 0) add(pick(scarce), 1 + Math.floor(random() * 2));
  if (lines.size === 0 || random() < 0.4) add(pick(plenty), 1);
  const promoCode = world.promoCodes.length > 0 && random() < 0.25 ? pick(world.promoCodes) : undefined;
  outcome.usedPromo = promoCode !== undefined;

  const answer = await browser.post("/api/pay/create-order", "create-order", {
    items: [...lines.values()],
    customer: { name: `Cliente ${index}`, phone: `+244 9${String(10_000_000 + index).padStart(8, "0")}` },
    delivery: { method: "pickup", pickupPointId: world.pickupPointId },
    ...(promoCode ? { promoCode } : {}),
  });
  if (!answer) return { ...outcome, checkout: "failed" };
  if (answer.status !== 200) {
    const code = (answer.body as { error?: { code?: string } } | undefined)?.error?.code;
    return { ...outcome, checkout: code ?? `http_${answer.status}` };
  }
  const id = (answer.body as { externalTransactionId: string }).externalTransactionId;
  outcome.checkout = "order";
  outcome.externalTransactionId = id;

  const control = async (action: string, body: Record<string, unknown> = {}) => {
    const reply = await world.control.request("POST", `/orders/${id}/${action}`, body);
    if (reply.status === 409) outcome.refusedByService ??= action;
    else if (reply.status !== 200) throw new Error(`sandbox ${action} ${id}: ${reply.status}`);
  };
  /** A webhook shape: mostly normal, else a duplicate or a delay that lets later news overtake it. */
  const shape = (): Record<string, unknown> => {
    const r = random();
    if (r < 0.25) {
      outcome.shapes.push("duplicate");
      return { delivery: "duplicate" };
    }
    if (r < 0.45) {
      outcome.shapes.push("late");
      return { delivery: "late", delaySeconds: 1 + Math.floor(random() * 4) };
    }
    return {};
  };
  /** Sometimes the same news again later, or stale news (a PEN after the payment) out of order. */
  const echoes = async () => {
    if (random() < 0.3) {
      await sleep(500 + random() * 2_500);
      outcome.shapes.push("redeliver");
      await world.control.request("POST", `/orders/${id}/redeliver`, {});
    }
    if (random() < 0.15) {
      outcome.shapes.push("out_of_order");
      await world.control.request("POST", `/orders/${id}/deliver`, { paymentStatus: "PEN" });
    }
  };

  // The popup takes a moment, whatever the shopper does in it.
  await sleep(300 + random() * 2_000);
  switch (plan) {
    case "express":
      await control("approve", shape());
      await echoes();
      break;
    case "bank_in_time":
      await control("pending", shape());
      await sleep(1_000 + random() * 8_000);
      await control("confirm", shape());
      await echoes();
      break;
    case "bank_late":
      // The reference is taken only after the hold ran out, some after a sweep ended it too.
      await sleep(world.holdSeconds * 1_000 + random() * 75_000);
      await control("pending", {});
      await sleep(500 + random() * 3_000);
      await control("confirm", shape());
      await echoes();
      break;
    case "bank_expired":
      await control("pending", shape());
      await sleep(1_000 + random() * 10_000);
      await control("expire", shape());
      break;
    case "cancel":
      await control("cancel", shape());
      break;
    case "abandon":
      return outcome;
  }
  // The success or pending page asks until the order is final (or gives up).
  for (let asked = 0; asked < 8; asked++) {
    await sleep(1_000 + random() * 1_000);
    const status = await browser.get(`/api/pay/order/${id}/status`, "status");
    const value = (status?.body as { status?: string } | undefined)?.status;
    if (value) outcome.lastStatus = value;
    if (value === "CON" || value === "CAN") break;
  }
  return outcome;
}

/** One shopper's requests: its cookie, the instance it talks to, retries the way a shopper retries. */
class Browser {
  private cookie: string | null = null;
  private instance: number;

  constructor(
    private readonly world: ShopperWorld,
    index: number,
  ) {
    this.instance = index % world.instances.length;
  }

  get(path: string, route: string) {
    return this.send(path, route, { method: "GET" });
  }

  post(path: string, route: string, body: unknown) {
    return this.send(path, route, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json" },
    });
  }

  /**
   * Sends the request, and again (at most 5 times) after a 503 (after its Retry-After, else 1 s)
   * or no answer (to the other instance): what a shopper pressing the button again does.
   */
  private async send(
    path: string,
    route: string,
    init: RequestInit,
  ): Promise<{ status: number; body: unknown } | null> {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const instance = this.instance;
      const at = Date.now();
      try {
        const response = await fetch(`${this.world.instances[instance]}${path}`, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), ...(this.cookie ? { Cookie: this.cookie } : {}) },
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        this.world.log.add({
          at,
          ms: Date.now() - at,
          instance,
          route,
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
        });
        const setCookie = response.headers.getSetCookie().map((line) => line.split(";")[0]!);
        if (setCookie.length > 0) this.cookie = [...(this.cookie ? [this.cookie] : []), ...setCookie].join("; ");
        if (response.status === 503 && attempt < 5 && Date.now() < this.world.deadline) {
          await sleep(Math.min(10, Number(response.headers.get("retry-after")) || 1) * 1_000);
          continue;
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        return { status: response.status, body };
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        this.world.log.add({ at, ms: Date.now() - at, instance, route, status: 0, retryAfter: null, error: cause });
        this.instance = (instance + 1) % this.world.instances.length;
        if (Date.now() >= this.world.deadline) return null;
        await sleep(500);
      }
    }
    return null;
  }
}
