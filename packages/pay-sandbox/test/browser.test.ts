import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chromiumLaunchOptions } from "../src/chromium.js";
import type { PayButtonConfig, PayGlobal } from "../src/sdk.js";
import { startTestSandbox, type TestSandbox } from "../src/testing.js";

// The SDK and the hosted popup in a real browser (contract 4.3, 2.8 to 2.10, 6.2): a shop page
// on one origin loads /sdks/v1/pay.js from the sandbox, on another, and pays through the popup.
// Each test records the callbacks on the shop page's window and waits on them, never sleeps.

let browser: Browser;
let sandbox: TestSandbox;
let shop: { url: string; server: Server };
let token: string;
let context: BrowserContext;
let page: Page;

/** A callback the shop page saw, with its data. */
interface Call {
  name: string;
  data?: unknown;
}

/**
 * What the shop page holds for the test: the calls so far, the SDK global under test, and for
 * a held createOrder, what lets it go on.
 */
type ShopWindow = Window & { calls: Call[]; Pay: PayGlobal; releaseOrder?: () => void };

/** The shop's page: the SDK's script tag and an empty container, nothing else. */
function shopPage(sdkUrl: string): string {
  return `<!doctype html><html lang="pt"><head><meta charset="utf-8"><title>Shop</title>
<script src="${sdkUrl}"></script></head><body><div id="pay-container"></div></body></html>`;
}

/** The shop's backend: the page, and endpoint A reduced to a createPaymentOrder at the sandbox. */
async function startShop(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.method === "POST" && request.url === "/api/pay/create-order") {
      sandbox.createOrder(token, sandbox.orderBody({ amount: 12500 })).then(
        (answer) => {
          response.writeHead(answer.status, { "Content-Type": "application/json" });
          response.end(JSON.stringify({ referenceNumber: answer.body.data?.referenceNumber }));
        },
        () => response.writeHead(502).end(),
      );
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(shopPage(`${sandbox.url}/sdks/v1/pay.js`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  browser = await chromium.launch({ ...chromiumLaunchOptions(), headless: true });
  sandbox = await startTestSandbox();
  token = await sandbox.accessToken();
  shop = await startShop();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.server.close(resolve));
  await sandbox?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  await page.goto(shop.url);
});
afterEach(() => context.close());

/** `held`: as `shop`, once the test calls `window.releaseOrder()`. */
type CreateOrderMode = "shop" | "empty" | "reject" | "held";

interface ButtonSetup {
  publishableKey: string;
  createOrder: CreateOrderMode;
  options?: PayButtonConfig["options"];
  /** Customer info and payment references added inside createOrder, as a shop would. */
  withCustomer?: boolean;
}

/** Renders the button with callbacks that record themselves on `window.calls`. */
async function renderButton(setup: Partial<ButtonSetup> = {}): Promise<void> {
  const full: ButtonSetup = { publishableKey: sandbox.credentials.publishableKey, createOrder: "shop", ...setup };
  await page.evaluate((options) => {
    const shopWindow = window as unknown as ShopWindow;
    shopWindow.calls = [];
    const record = (name: string, data?: unknown) => shopWindow.calls.push({ name, data });
    const sdk = shopWindow.Pay(options.publishableKey);
    const closedAction = (actions: { onPopupWindowClosed(fn: () => void): void }) =>
      actions.onPopupWindowClosed(() => record("popupClosed"));
    sdk
      .generateButton({
        async createOrder() {
          record("createOrder");
          if (options.withCustomer) {
            sdk.addCustomerInfo?.({ name: "Ana Silva", phone: "+244 923 000 000" });
            sdk.addAllPaymentReferences?.([
              {
                referenceNumber: "line_1",
                referenceDescription: "Café 1 kg",
                referenceAmount: 12500,
                referenceQuantity: 1,
                referenceTotalQuantity: 40,
              },
            ]);
          }
          if (options.createOrder === "empty") return "";
          if (options.createOrder === "reject") throw new Error("cart is empty");
          if (options.createOrder === "held") await new Promise<void>((release) => (shopWindow.releaseOrder = release));
          const response = await fetch("/api/pay/create-order", { method: "POST" });
          return ((await response.json()) as { referenceNumber: string }).referenceNumber;
        },
        onApprove(data, actions) {
          record("onApprove", data);
          closedAction(actions);
        },
        onPending(data, actions) {
          record("onPending", data);
          closedAction(actions);
        },
        onCancel() {
          record("onCancel");
        },
        onError(error) {
          record("onError", error instanceof Error ? error.message : String(error));
        },
        onClick() {
          record("onClick");
        },
        options: options.options,
      })
      .render("#pay-container");
  }, full);
}

/** Polls until the assertion holds: the popup closes itself 1.5 s after an outcome, past expect.poll's 1 s default. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

const calls = () => page.evaluate(() => (window as unknown as ShopWindow).calls);
const callNames = async () => (await calls()).map((call) => call.name);

/** Clicks the button and returns the popup once it shows the checkout of an order. */
async function openCheckout(): Promise<Page> {
  const popupOpened = page.waitForEvent("popup");
  await page.click("[data-pay-button]");
  const popup = await popupOpened;
  await popup.waitForURL(/\/checkout\/\d{9}\?/);
  await popup.waitForSelector("[data-method]");
  return popup;
}

const referenceOf = (popup: Page) => /\/checkout\/(\d{9})\?/.exec(popup.url())![1]!;

async function orderOf(referenceNumber: string) {
  const orders: { referenceNumber: string; externalTransactionId: string; status: string }[] = (
    await sandbox.control("GET", "/orders")
  ).body.orders;
  return orders.find((order) => order.referenceNumber === referenceNumber);
}

describe("the button", () => {
  it("renders one accessible button into its container, again on a second render", async () => {
    await renderButton({ options: { style: { width: "100%", shape: "pill" }, config: { lang: "pt" } } });
    await renderButton({ options: { style: { width: "100%", shape: "pill" }, config: { lang: "en" } } });
    const buttons = page.locator("#pay-container [data-pay-button]");
    await eventually(() => buttons.count()).toBe(1);
    expect(await buttons.getAttribute("type")).toBe("button");
    expect(await buttons.textContent()).toBe("Pay");
    expect(await page.getByRole("button", { name: "Pay" }).count()).toBe(1);
    const style = await buttons.evaluate((button: HTMLElement) => ({
      width: button.style.width,
      radius: button.style.borderRadius,
    }));
    expect(style).toEqual({ width: "100%", radius: "999px" });
  });

  it("refuses a missing container, a bad key and a bad config with clear errors", async () => {
    const errors = await page.evaluate((publishableKey) => {
      const { Pay } = window as unknown as ShopWindow;
      const noop = () => undefined;
      const base = {
        createOrder: async () => "1",
        onApprove: noop,
        onPending: noop,
        onCancel: noop,
        onError: noop,
      };
      const attempt = (run: () => unknown) => {
        try {
          run();
          return "no error";
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      };
      const sdk = Pay(publishableKey);
      return {
        missing: attempt(() => sdk.generateButton(base).render("#nowhere")),
        secretKey: attempt(() => Pay("sk_test_123")),
        liveKey: attempt(() => Pay("pk_live_123")),
        noOnError: attempt(() => sdk.generateButton({ ...base, onError: undefined as never })),
        badMethod: attempt(() =>
          sdk.generateButton({
            ...base,
            options: { paymentConfig: { allowedPaymentMethods: ["CASH" as never] } },
          }),
        ),
        badShape: attempt(() => sdk.generateButton({ ...base, options: { style: { shape: "round" as never } } })),
        badLifeSpan: attempt(() =>
          sdk.generateButton({ ...base, options: { paymentConfig: { referencePaymentLifeSpan: 0 } } }),
        ),
        badReference: attempt(() =>
          sdk.addAllPaymentReferences?.([{ referenceNumber: "1", referenceDescription: "x" } as never]),
        ),
        badCustomer: attempt(() => sdk.addCustomerInfo?.({ name: "Ana" } as never)),
      };
    }, sandbox.credentials.publishableKey);
    expect(errors.missing).toMatch(/^Error: .*"#nowhere".*in the DOM before render/);
    expect(errors.secretKey).toMatch(/^TypeError: .*pk_test_ or pk_live_/);
    expect(errors.liveKey).toMatch(/^TypeError: .*refuses pk_live_ keys/);
    expect(errors.noOnError).toMatch(/^TypeError: .*onError/);
    expect(errors.badMethod).toMatch(/^TypeError: .*"CASH"/);
    expect(errors.badShape).toMatch(/^TypeError: .*shape/);
    expect(errors.badLifeSpan).toMatch(/^TypeError: .*referencePaymentLifeSpan/);
    expect(errors.badReference).toMatch(/^TypeError: .*referenceAmount/);
    expect(errors.badCustomer).toMatch(/^TypeError: .*phone/);
  });
});

describe("paying through the popup", () => {
  it("approve: onApprove with the orderId, then onPopupWindowClosed once the popup closes", async () => {
    await renderButton();
    const popup = await openCheckout();
    const order = await orderOf(referenceOf(popup));
    await popup.click('[data-method="FPMCXEXPRSS"]');

    await eventually(callNames).toEqual(["onClick", "createOrder", "onApprove", "popupClosed"]);
    expect(popup.isClosed()).toBe(true);
    const approve = (await calls())[2];
    expect(approve?.data).toMatchObject({
      payment: {
        orderId: order?.externalTransactionId,
        referenceNumber: order?.referenceNumber,
        paymentMethod: "FPMCXEXPRSS",
      },
    });
    expect(await orderOf(order!.referenceNumber)).toMatchObject({ status: "CON" });
  });

  it("bank reference: onPending with the payment reference and entity number", async () => {
    await renderButton({ options: { paymentConfig: { referencePaymentLifeSpan: 60 } } });
    const popup = await openCheckout();
    const referenceNumber = referenceOf(popup);
    await popup.click('[data-method="FPSOLPGEXT"]');

    await eventually(callNames).toContain("onPending");
    const order = (await sandbox.control("GET", `/orders/${(await orderOf(referenceNumber))!.externalTransactionId}`))
      .body.order;
    expect(order).toMatchObject({ status: "PEN", paymentMethod: "FPSOLPGEXT" });
    const pending = (await calls()).find((call) => call.name === "onPending");
    expect(pending?.data).toMatchObject({
      payment: {
        orderId: order.externalTransactionId,
        data: { paymentReference: order.paymentReference, entity: { number: order.entityNumber } },
      },
    });
    expect(Date.parse(order.referenceExpiresAt) - Date.parse(order.updatedAt)).toBeGreaterThan(59 * 60_000);
    expect(Date.parse(order.referenceExpiresAt) - Date.parse(order.updatedAt)).toBeLessThan(61 * 60_000);
    await eventually(callNames).toEqual(["onClick", "createOrder", "onPending", "popupClosed"]);
  });

  it("the popup's Cancelar button: onCancel, and the order CAN", async () => {
    await renderButton();
    const popup = await openCheckout();
    const referenceNumber = referenceOf(popup);
    await popup.getByRole("button", { name: "Cancelar" }).click();

    await eventually(callNames).toEqual(["onClick", "createOrder", "onCancel"]);
    expect(await orderOf(referenceNumber)).toMatchObject({ status: "CAN" });
  });

  it("a popup closed by the shopper before paying: onCancel, the order left PEN", async () => {
    await renderButton();
    const popup = await openCheckout();
    const referenceNumber = referenceOf(popup);
    await popup.close();

    await eventually(callNames).toEqual(["onClick", "createOrder", "onCancel"]);
    expect(await orderOf(referenceNumber)).toMatchObject({ status: "PEN" });
  });

  it("opens the popup inside the click, showing its loading state, before createOrder has resolved", async () => {
    await renderButton({ createOrder: "held" });
    // What window.open had done by the time the click reached the document: a popup opened after
    // an await (which browsers block) would not be counted yet.
    await page.evaluate(() => {
      const state = window as unknown as { opens: number; opensDuringClick: number };
      const open = window.open.bind(window);
      state.opens = 0;
      window.open = (...args) => {
        state.opens += 1;
        return open(...args);
      };
      document.addEventListener("click", () => (state.opensDuringClick = state.opens), { once: true });
    });
    const popupOpened = page.waitForEvent("popup");
    await page.click("[data-pay-button]");
    const popup = await popupOpened;

    expect(await page.evaluate(() => (window as unknown as { opensDuringClick: number }).opensDuringClick)).toBe(1);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).pathname).toBe("/checkout/loading");
    expect(await popup.locator('main[aria-busy="true"] [role="status"]').textContent()).toBe("A preparar o pagamento…");
    // createOrder was called and is still waiting: no order yet.
    expect(await callNames()).toEqual(["onClick", "createOrder"]);
    expect(await page.evaluate(() => typeof (window as unknown as ShopWindow).releaseOrder)).toBe("function");

    await page.evaluate(() => (window as unknown as ShopWindow).releaseOrder?.());
    await popup.waitForURL(/\/checkout\/\d{9}\?/);
    await popup.waitForSelector("[data-method]");
    expect(await orderOf(referenceOf(popup))).toMatchObject({ status: "PEN" });
  });

  it("a click while the popup is open brings it forward instead of opening another", async () => {
    await renderButton();
    await openCheckout();
    // Counts window.open calls: a second popup would be opened synchronously inside the click.
    await page.evaluate(() => {
      const shopWindow = window as unknown as ShopWindow & { opens: number };
      const open = window.open.bind(window);
      shopWindow.opens = 0;
      window.open = (...args) => {
        shopWindow.opens += 1;
        return open(...args);
      };
    });
    await page.click("[data-pay-button]");
    expect(await page.evaluate(() => (window as unknown as { opens: number }).opens)).toBe(0);
    expect(context.pages()).toHaveLength(2);
    expect(await callNames()).toEqual(["onClick", "createOrder"]);
  });

  it("forwards lang and every paymentConfig field, and always offers FPSOLPG", async () => {
    await renderButton({
      withCustomer: true,
      options: {
        config: { lang: "en" },
        paymentConfig: {
          theme: "dark",
          allowedPaymentMethods: ["FPMCXEXPRSS"],
          showUIOfProcessingInfo: true,
          referencePaymentLifeSpan: 90,
          // A field this SDK knows nothing of: forwarded all the same (contract 2.9).
          campaign: { code: "verao", stamps: [1, 2] },
        },
      },
    });
    const popup = await openCheckout();
    const query = new URL(popup.url()).searchParams;
    expect(query.get("key")).toBe(sandbox.credentials.publishableKey);
    expect(query.get("lang")).toBe("en");
    expect(query.get("origin")).toBe(shop.url);
    expect(JSON.parse(query.get("paymentConfig")!)).toEqual({
      theme: "dark",
      allowedPaymentMethods: ["FPMCXEXPRSS"],
      showUIOfProcessingInfo: true,
      referencePaymentLifeSpan: 90,
      campaign: { code: "verao", stamps: [1, 2] },
    });
    expect(await popup.locator("html").getAttribute("lang")).toBe("en");
    expect(await popup.locator("html").getAttribute("data-theme")).toBe("dark");
    const methods = await popup
      .locator("[data-method]")
      .evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset.method));
    expect(methods).toEqual(["FPMCXEXPRSS", "FPSOLPG"]);
    expect(await popup.locator("[data-customer]").textContent()).toContain("Ana Silva");
    expect(await popup.locator("[data-reference-line]").textContent()).toContain("Café 1 kg × 1");
    await eventually(() => popup.getByRole("button", { name: "Cancel" }).count()).toBe(1);

    // showUIOfProcessingInfo: the processing step shows before the outcome.
    await popup.click('[data-method="FPSOLPG"]');
    await popup.waitForSelector("#processing:not([hidden])");
    await eventually(callNames).toContain("onApprove");
    expect((await calls()).find((call) => call.name === "onApprove")?.data).toMatchObject({
      payment: { paymentMethod: "FPSOLPG" },
    });
  });
});

describe("errors", () => {
  it('createOrder resolving "": onError with a clear message, and the popup closed', async () => {
    await renderButton({ createOrder: "empty" });
    const popupOpened = page.waitForEvent("popup");
    await page.click("[data-pay-button]");
    const popup = await popupOpened;

    await eventually(callNames).toEqual(["onClick", "createOrder", "onError"]);
    expect((await calls())[2]?.data).toMatch(/createOrder must resolve to .*referenceNumber.*non-empty string/);
    await eventually(() => popup.isClosed()).toBe(true);
  });

  it("createOrder rejecting: onError with its error, and the popup closed", async () => {
    await renderButton({ createOrder: "reject" });
    const popupOpened = page.waitForEvent("popup");
    await page.click("[data-pay-button]");
    const popup = await popupOpened;

    await eventually(callNames).toEqual(["onClick", "createOrder", "onError"]);
    expect((await calls())[2]?.data).toBe("cart is empty");
    await eventually(() => popup.isClosed()).toBe(true);
  });

  it("ignores outcome messages from anyone but its own popup on the sandbox's origin", async () => {
    await renderButton();
    const popup = await openCheckout();
    const referenceNumber = referenceOf(popup);
    // The shop page itself (another origin) forging an approval.
    await page.evaluate(
      (reference) =>
        window.postMessage(
          { type: "pay:checkout-outcome", referenceNumber: reference, outcome: "approved", payment: {} },
          "*",
        ),
      referenceNumber,
    );
    await popup.getByRole("button", { name: "Cancelar" }).click();
    await eventually(callNames).toEqual(["onClick", "createOrder", "onCancel"]);
  });
});

describe("the dashboard", () => {
  /** A new PEN order at the sandbox; its externalTransactionId. */
  async function newOrder(amount: number): Promise<string> {
    const body = sandbox.orderBody({ amount });
    await sandbox.createOrder(token, body);
    return body.externalTransactionId as string;
  }
  /** The dashboard, once it lists the order; the order's row. */
  async function dashboardRow(externalTransactionId: string) {
    await page.goto(sandbox.dashboardUrl);
    const row = page.locator(`tr[data-order="${externalTransactionId}"]`);
    await eventually(() => row.count()).toBe(1);
    return row;
  }
  const orderState = async (externalTransactionId: string) =>
    (await sandbox.control("GET", `/orders/${externalTransactionId}`)).body.order;
  const statusCell = (row: Locator) => row.locator("[data-status-cell]").textContent();

  it("lists an order and approves it through the control API", async () => {
    const id = await newOrder(4200);
    const row = await dashboardRow(id);
    expect(await row.textContent()).toContain("4200 AOA");

    await row.locator('button[data-action="approve"]').click();
    await eventually(() => statusCell(row)).toBe("CON");
    expect((await orderState(id)).status).toBe("CON");
    const deliveries = page.locator("[data-deliveries] tr", { hasText: id });
    await eventually(() => deliveries.count()).toBe(1);
  });

  it("confirms a pending reference: CON by the reference's method, a PEN then a CON notification", async () => {
    const id = await newOrder(4300);
    await sandbox.control("POST", `/orders/${id}/pending`, {});
    const row = await dashboardRow(id);

    await row.locator('button[data-action="confirm"]').click();
    await eventually(() => statusCell(row)).toBe("CON");
    expect(await orderState(id)).toMatchObject({ status: "CON", paymentMethod: "FPSOLPGEXT" });
    const deliveries = await sandbox.waitForDeliveries({ externalTransactionId: id, count: 2 });
    expect(deliveries.map((delivery) => delivery.paymentStatus)).toEqual(["PEN", "CON"]);
  });

  it.each([
    ["cancel", "cancelled"],
    ["expire", "expired"],
  ])("%s: the order CAN (%s), its notification logged, and no more actions but redeliver", async (action, reason) => {
    const id = await newOrder(4400);
    const row = await dashboardRow(id);

    await row.locator(`button[data-action="${action}"]`).click();
    await eventually(() => statusCell(row)).toBe(`CAN (${reason})`);
    expect(await orderState(id)).toMatchObject({ status: "CAN", cancelReason: reason });
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id });
    expect(delivery).toMatchObject({ paymentStatus: "CAN", kind: "normal" });
    const enabled = await row
      .locator("button[data-action]:not([disabled])")
      .evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset.action));
    expect(enabled).toEqual(["redeliver"]);
  });

  it("redelivers the order's latest notification: the same status again, as a redelivery", async () => {
    const id = await newOrder(4500);
    await sandbox.control("POST", `/orders/${id}/approve`, {});
    await sandbox.waitForDeliveries({ externalTransactionId: id });
    const row = await dashboardRow(id);

    await row.locator('button[data-action="redeliver"]').click();
    const deliveries = await sandbox.waitForDeliveries({ externalTransactionId: id, count: 2 });
    expect(deliveries.map((delivery) => [delivery.paymentStatus, delivery.kind])).toEqual([
      ["CON", "normal"],
      ["CON", "redelivery"],
    ]);
    expect((await orderState(id)).status).toBe("CON");
    await eventually(() => page.locator("[data-deliveries] tr", { hasText: id }).count()).toBe(2);
    expect(await page.locator("[data-status]").textContent()).toBe(`redeliver ${id}: done`);
  });
});
