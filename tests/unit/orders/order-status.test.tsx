// @vitest-environment jsdom
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OrderStatus } from "@/components/orders/order-status";
import { CART_REFRESH_DELAYS_MS } from "@/components/cart/use-header-cart-count";
import { POLL_FIRST_DELAY_MS, type OrderStatusCode } from "@/components/orders/use-order-status";

// The result pages' status in jsdom: endpoint C is a fake `fetch`, the router a spy.

const router = vi.hoisted(() => ({ push: vi.fn(), replace: vi.fn(), refresh: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => router }));
// next/link needs Next's router context; a plain anchor is what it renders anyway.
vi.mock("next/link", () => ({
  default: ({ href, children, ...rest }: { href: string; children: ReactNode }) => (
    <a href={href} {...rest}>
      {children}
    </a>
  ),
}));

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });

const ID = "order_5f0c7a52-3d5e-4a8e-9c61-0b7b2f1d9e11";
let root: Root | undefined;

beforeEach(() => {
  vi.useFakeTimers();
  for (const spy of Object.values(router)) spy.mockReset();
});
afterEach(() => {
  if (root) act(() => root!.unmount());
  root = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function answerStatus(status: OrderStatusCode) {
  const fetchMock = vi.fn(async () => Response.json({ externalTransactionId: ID, status }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function show(
  page: "success" | "pending" | "order",
  initial: OrderStatusCode,
  cartCleared = false,
  paidAfterCancel = false,
) {
  const host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
  render(page, initial, cartCleared, paidAfterCancel);
  return host;
}

/** The page's server render again, as router.refresh() brings it: new props for the same component. */
function render(
  page: "success" | "pending" | "order",
  initial: OrderStatusCode,
  cartCleared: boolean,
  paidAfterCancel = false,
) {
  act(() =>
    root!.render(
      <OrderStatus
        lang="pt"
        page={page}
        externalTransactionId={ID}
        initial={{ status: initial }}
        amountAoa={2500}
        lines={[]}
        cartCleared={cartCleared}
        paidAfterCancel={paidAfterCancel}
      />,
    ),
  );
}

/** The first poll of endpoint C, and what React does with its answer. */
const firstPoll = () => act(() => vi.advanceTimersByTimeAsync(POLL_FIRST_DELAY_MS));

describe("OrderStatus", () => {
  it.each(["success", "pending", "order"] as const)(
    "on the %s page, an order that turns CAN goes to the reopened cart with the cancelled notice",
    async (page) => {
      const fetchMock = answerStatus("CAN");
      show(page, "PEN");
      await firstPoll();
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(router.replace.mock.calls).toEqual([[`/cart?cancelled=${ID}`]]);
      expect(router.push).not.toHaveBeenCalled();
    },
  );

  it("an order that turns CON stays, says paid and refreshes the header", async () => {
    answerStatus("CON");
    const host = show("success", "PEN");
    await firstPoll();
    expect(host.querySelector('[data-testid="order-status"]')?.getAttribute("data-status")).toBe("CON");
    expect(router.replace).not.toHaveBeenCalled();
    expect(router.refresh).toHaveBeenCalled();
  });

  it("a 429 from endpoint C waits at least its Retry-After before asking again, and the page stays as it was", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        Response.json(
          { error: { code: "rate_limited", message: "too many status checks" } },
          { status: 429, headers: { "Retry-After": "20" } },
        ),
      )
      .mockImplementation(async () => Response.json({ externalTransactionId: ID, status: "CON" }));
    vi.stubGlobal("fetch", fetchMock);
    const host = show("success", "PEN");
    const shown = () => host.querySelector('[data-testid="order-status"]')?.getAttribute("data-status");

    await firstPoll();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(shown()).toBe("PEN");
    // The backoff alone would ask again after 1.5 s; the server said 20.
    await act(() => vi.advanceTimersByTimeAsync(19_900));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(shown()).toBe("CON");
  });

  it("an order already CAN when the page opens is shown, with the way back to the cart, and not left", async () => {
    const fetchMock = answerStatus("CAN");
    const host = show("order", "CAN");
    await firstPoll();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(router.replace).not.toHaveBeenCalled();
    expect(host.querySelector('a[href="/cart"]')?.textContent).toBe("Voltar ao carrinho");
    expect(host.textContent).toContain("nada foi cobrado");
  });

  it("an order paid after it was cancelled never says nothing was charged: it says the payment arrived late", () => {
    answerStatus("CAN");
    const host = show("order", "CAN", false, true);
    expect(host.textContent).toContain("Pagamento recebido depois do cancelamento");
    expect(host.textContent).not.toContain("nada foi cobrado");
    expect(host.textContent).not.toContain("Pagamento cancelado");
  });
});

describe("the header's cart count after a payment", () => {
  const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
  const allDelays = CART_REFRESH_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);

  it("arriving on the success page with the order paid and the cart emptied: one refresh, for the layout the client navigation kept", async () => {
    answerStatus("CON");
    show("success", "CON", true);
    expect(router.refresh).toHaveBeenCalledTimes(1);
    await wait(allDelays + 60_000);
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("an order page opened long after the payment refreshes nothing", async () => {
    answerStatus("CON");
    show("order", "CON", true);
    await wait(allDelays + 60_000);
    expect(router.refresh).not.toHaveBeenCalled();
  });

  it("an order that turns CON before the job empties its cart: refreshes until the server says emptied, then once more, then stops", async () => {
    answerStatus("CON");
    show("success", "PEN");
    await firstPoll();
    expect(router.refresh).toHaveBeenCalledTimes(1);
    // The refresh's render: paid, the cart not emptied yet.
    render("success", "CON", false);
    expect(router.refresh).toHaveBeenCalledTimes(1);
    await wait(CART_REFRESH_DELAYS_MS[0]!);
    expect(router.refresh).toHaveBeenCalledTimes(2);
    // That render: the job has run. Its layout may have read the cart a moment before: once more.
    render("success", "CON", true);
    expect(router.refresh).toHaveBeenCalledTimes(3);
    render("success", "CON", true);
    await wait(allDelays + 60_000);
    expect(router.refresh).toHaveBeenCalledTimes(3);
    expect(router.replace).not.toHaveBeenCalled();
  });

  it("a cart that stays full (the job failing) is asked about a bounded number of times", async () => {
    answerStatus("CON");
    show("pending", "CON", false);
    for (const delay of CART_REFRESH_DELAYS_MS) await wait(delay);
    expect(router.refresh).toHaveBeenCalledTimes(1 + CART_REFRESH_DELAYS_MS.length);
    for (let minute = 0; minute < 5; minute++) await wait(60_000);
    expect(router.refresh).toHaveBeenCalledTimes(1 + CART_REFRESH_DELAYS_MS.length);
  });

  it("an order that turns CAN is not the header's business here: the cart page takes over", async () => {
    answerStatus("CAN");
    show("success", "PEN");
    await firstPoll();
    await wait(allDelays);
    expect(router.refresh).not.toHaveBeenCalled();
  });
});

describe("a bank reference's deadline", () => {
  function showReference(payBy?: string) {
    const host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    const initial = { status: "PEN" as const, paymentReference: "123456789", entityNumber: "00123" };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ externalTransactionId: ID, ...initial, ...(payBy ? { payBy } : {}) })),
    );
    act(() =>
      root!.render(
        <OrderStatus
          lang="pt"
          page="pending"
          externalTransactionId={ID}
          initial={{ ...initial, ...(payBy ? { payBy } : {}) }}
          amountAoa={2500}
          lines={[]}
          cartCleared={false}
        />,
      ),
    );
    return host.querySelector('[data-testid="reference-life-span"]')!;
  }

  it("says the reference's life span, or, when the order's hold ends first, the time to pay by in Luanda", async () => {
    expect(showReference().textContent).toBe("A referência é válida durante 24 horas.");
    act(() => root!.unmount());
    // 12:05 UTC is 13:05 in Luanda (UTC+1).
    const deadline = showReference("2026-11-27T12:05:00.000Z");
    expect(deadline.textContent).toMatch(/^Pague até 27\/11,? 13:05: depois dessa hora a encomenda é cancelada/);
    await firstPoll();
    expect(deadline.textContent).toContain("13:05");
  });
});
