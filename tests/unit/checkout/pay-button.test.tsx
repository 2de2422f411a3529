// @vitest-environment jsdom
import { act, StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { PayButton, type PayButtonLine, type PayButtonProps } from "@/components/checkout/pay-button";
import { idSelector } from "@/components/checkout/pay-button/selector";
import { PayOrderError } from "@/components/checkout/pay-button/request-order";
import { en, pt } from "@/lib/i18n/dictionaries";
import { payButtonOptions } from "@/lib/pay/sdk/config";
import { resetPaySdkLoaderForTests } from "@/lib/pay/sdk/loader";
import type {
  PayButtonConfig,
  PayCallbackActions,
  PayCustomerInfo,
  PayGlobal,
  PaymentReferenceItem,
} from "@/lib/pay/sdk/types";

// A browser unit test: no server, so endpoint A is a fake `fetch` and the SDK a fake `window.Pay`.
// jsdom never fetches scripts; `loadSdk()` plays the browser finishing the inserted tag.

const router = vi.hoisted(() => ({ push: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => router }));

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });

const SDK_URL = "https://sdk.pay.test/sdks/v1/pay.js";
const LINES: PayButtonLine[] = [
  { description: "Café Ginga 250 g", unitPriceAoa: 2_500, quantity: 2, stock: 40 },
  { description: "Mel de Cabinda", unitPriceAoa: 4_000, quantity: 1, stock: 7 },
];
const ANA: PayCustomerInfo = { name: "Ana Silva", phone: "+244 923 456 789" };
// The server's references (lib/pay/sdk/payment-references.ts): the lines, and the delivery fee.
const REFERENCES: PaymentReferenceItem[] = [
  {
    referenceNumber: "REF-77",
    referenceDescription: "Café Ginga 250 g",
    referenceAmount: 2_500,
    referenceQuantity: 2,
    referenceTotalQuantity: 40,
  },
  {
    referenceNumber: "REF-77",
    referenceDescription: "Mel de Cabinda",
    referenceAmount: 4_000,
    referenceQuantity: 1,
    referenceTotalQuantity: 7,
  },
  {
    referenceNumber: "REF-77",
    referenceDescription: "Entrega: Talatona",
    referenceAmount: 2_000,
    referenceQuantity: 1,
    referenceTotalQuantity: 1,
  },
];
const ORDER = {
  externalTransactionId: "order_5f0c7a52-3d5e-4a8e-9c61-0b7b2f1d9e11",
  referenceNumber: "REF-77",
  amountAoa: 11_000,
  paymentReferences: REFERENCES,
};
const PROPS: PayButtonProps = {
  publishableKey: "pk_test_shop",
  sdkUrl: SDK_URL,
  lang: "pt",
  lines: LINES,
  customer: ANA,
};

interface FakeButton {
  config: PayButtonConfig;
  selector?: string;
  container?: Element;
}

/** Records what the component asks of the SDK; `render` appends, like a real SDK would. */
function fakeSdk() {
  const calls = {
    keys: [] as string[],
    buttons: [] as FakeButton[],
    customers: [] as PayCustomerInfo[],
    references: [] as PaymentReferenceItem[][],
  };
  const Pay: PayGlobal = (key) => {
    calls.keys.push(key);
    return {
      generateButton(config) {
        const button: FakeButton = { config };
        calls.buttons.push(button);
        return {
          render(selector) {
            const container = document.querySelector(selector);
            if (!container) throw new Error(`no element matches ${selector}`);
            const sdkButton = document.createElement("button");
            sdkButton.dataset.fake = "sdk-button";
            container.append(sdkButton);
            Object.assign(button, { selector, container });
          },
        };
      },
      addCustomerInfo: (customer) => calls.customers.push(customer),
      addAllPaymentReferences: (items) => calls.references.push(items),
    };
  };
  return { Pay, calls };
}

let sdk: ReturnType<typeof fakeSdk>;
let consoleError: MockInstance<typeof console.error>;
const roots: Root[] = [];

beforeEach(() => {
  resetPaySdkLoaderForTests();
  document.head.replaceChildren();
  document.body.replaceChildren();
  delete window.Pay;
  router.push.mockReset();
  sdk = fakeSdk();
  consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
});

afterEach(() => {
  for (const root of roots.splice(0)) act(() => root.unmount());
  const logged = consoleError.mock.calls.map(([first]) => String(first));
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  // The component's own logs start with "pay button:"; anything else (a React warning) fails.
  for (const message of logged) expect(message).toMatch(/^pay button:/);
});

function mount(props: PayButtonProps = PROPS) {
  const host = document.createElement("div");
  document.body.append(host);
  const root = createRoot(host);
  roots.push(root);
  const render = (next: PayButtonProps) =>
    act(() =>
      root.render(
        <StrictMode>
          <PayButton {...next} />
        </StrictMode>,
      ),
    );
  render(props);
  return {
    host,
    rerender: render,
    unmount: () => {
      act(() => root.unmount());
      roots.splice(roots.indexOf(root), 1);
    },
    wrapper: () => host.querySelector<HTMLElement>('[data-testid="pay-button"]')!,
    alert: () => host.querySelector<HTMLElement>('[data-testid="pay-button-error"]'),
  };
}

const sdkScripts = () => Array.from(document.scripts).filter((script) => script.src === SDK_URL);

/** Lets promise chains (the loader, the component's `then`) run to the end inside act. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

async function loadSdk() {
  const scripts = sdkScripts();
  expect(scripts).toHaveLength(1);
  window.Pay = sdk.Pay;
  scripts[0]!.dispatchEvent(new Event("load"));
  await settle();
}

async function mountReady(props: PayButtonProps = PROPS) {
  const view = mount(props);
  await loadSdk();
  expect(view.wrapper().dataset.state).toBe("ready");
  return view;
}

function onlyButton(): FakeButton {
  expect(sdk.calls.buttons).toHaveLength(1);
  return sdk.calls.buttons[0]!;
}

function stubCreateOrder(response: () => Response = () => Response.json(ORDER)) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response());
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** Calls a callback as the SDK would, inside act; returns its result or what it threw. */
async function callback<T>(run: () => T | Promise<T>): Promise<{ value?: T; error?: Error }> {
  let outcome: { value?: T; error?: Error } = {};
  await act(async () => {
    try {
      outcome = { value: await run() };
    } catch (error) {
      outcome = { error: error as Error };
    }
  });
  return outcome;
}

function popupActions() {
  const onClosed: Array<() => void> = [];
  const actions: PayCallbackActions = { onPopupWindowClosed: (fn) => onClosed.push(fn) };
  return { actions, closePopup: () => act(() => onClosed.forEach((fn) => fn())), onClosed };
}

describe("PayButton: the SDK script", () => {
  it("inserts one script tag under StrictMode, for two buttons, and across remounts", async () => {
    const first = mount();
    const second = mount();
    expect(sdkScripts()).toHaveLength(1);
    await loadSdk();
    expect(first.wrapper().dataset.state).toBe("ready");
    expect(second.wrapper().dataset.state).toBe("ready");

    first.unmount();
    second.unmount();
    const again = mount();
    await settle();
    expect(again.wrapper().dataset.state).toBe("ready");
    expect(sdkScripts()).toHaveLength(1);
  });

  it("shows a busy placeholder of fixed height until the SDK is loaded", async () => {
    const view = mount();
    expect(view.wrapper().dataset.state).toBe("loading");
    expect(view.wrapper().getAttribute("aria-busy")).toBe("true");
    expect(view.wrapper().className).toMatch(/\bmin-h-12\b/);
    expect(view.wrapper().textContent).toContain("A carregar o pagamento…");
    await loadSdk();
    expect(view.wrapper().getAttribute("aria-busy")).toBe("false");
    expect(view.wrapper().textContent).not.toContain("A carregar");
  });

  it("sets the CSP nonce on the script tag", () => {
    mount({ ...PROPS, nonce: "r4nd0m" });
    expect(sdkScripts()[0]?.getAttribute("nonce")).toBe("r4nd0m");
  });

  it("keeps the SDK button when a server render brings a new nonce", async () => {
    const view = await mountReady({ ...PROPS, nonce: "first-request" });
    const sdkButton = onlyButton().container!.firstElementChild;
    view.rerender({ ...PROPS, nonce: "second-request" });
    await settle();
    expect(view.wrapper().dataset.state).toBe("ready");
    expect(sdk.calls.buttons).toHaveLength(1);
    expect(onlyButton().container!.firstElementChild).toBe(sdkButton);
    expect(sdkButton?.isConnected).toBe(true);
  });
});

describe("PayButton: rendering the SDK button", () => {
  it("renders once (StrictMode included) into its own container, which exists, with the shop's options", async () => {
    const view = await mountReady();
    const button = onlyButton();
    expect(sdk.calls.keys).toEqual(["pk_test_shop"]);
    expect(button.config.options).toEqual(payButtonOptions("pt"));
    // Minutes: 24 h (docs/contract-decisions.md).
    expect(button.config.options?.paymentConfig?.referencePaymentLifeSpan).toBe(1440);
    expect(button.container?.isConnected).toBe(true);
    expect(view.wrapper().contains(button.container!)).toBe(true);
    expect(button.container?.id).toMatch(/^pay-button-/);
    expect(button.selector).toBe(idSelector(button.container!.id));
    expect(view.wrapper().querySelectorAll('[data-fake="sdk-button"]')).toHaveLength(1);
  });

  it("re-renders into an emptied container when the lines change, and not for equal lines", async () => {
    const view = await mountReady();
    const container = onlyButton().container!;
    view.rerender({ ...PROPS, lines: LINES.map((line) => ({ ...line })) });
    await settle();
    expect(sdk.calls.buttons).toHaveLength(1);

    view.rerender({ ...PROPS, lines: [{ ...LINES[0]!, quantity: 3 }] });
    await settle();
    expect(sdk.calls.buttons).toHaveLength(2);
    expect(sdk.calls.buttons[1]!.container).toBe(container);
    expect(container.querySelectorAll('[data-fake="sdk-button"]')).toHaveLength(1);
    expect(view.wrapper().dataset.state).toBe("ready");
  });

  it("re-renders with the other language's options when lang changes; the replaced button's callbacks do nothing", async () => {
    const view = await mountReady();
    const replaced = onlyButton();
    view.rerender({ ...PROPS, lang: "en" });
    await settle();
    expect(sdk.calls.buttons).toHaveLength(2);
    expect(sdk.calls.buttons[1]!.config.options).toEqual(payButtonOptions("en"));
    expect(view.wrapper().querySelectorAll('[data-fake="sdk-button"]')).toHaveLength(1);
    await callback(() => replaced.config.onCancel());
    expect(router.push).not.toHaveBeenCalled();
  });

  it("keeps the SDK button when the customer and callbacks change, and uses the latest ones at click time", async () => {
    const firstCallback = vi.fn();
    const latestCallback = vi.fn();
    const view = await mountReady({ ...PROPS, onOrderCreated: firstCallback });
    const bea = { name: "Bea Costa", phone: "923 000 111" };
    view.rerender({ ...PROPS, customer: bea, onOrderCreated: latestCallback });
    await settle();
    const button = onlyButton();

    const fetchMock = stubCreateOrder();
    await callback(() => button.config.createOrder());
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ customer: bea });
    expect(sdk.calls.customers).toEqual([bea]);
    expect(latestCallback).toHaveBeenCalledWith(ORDER);
    expect(firstCallback).not.toHaveBeenCalled();
  });
});

describe("PayButton: createOrder", () => {
  it("posts the customer as JSON to endpoint A, hands the SDK the server's references, and returns the reference", async () => {
    const onOrderCreated = vi.fn();
    await mountReady({ ...PROPS, onOrderCreated });
    const fetchMock = stubCreateOrder();
    const { value } = await callback(() => onlyButton().config.createOrder());

    expect(value).toBe(ORDER.referenceNumber);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/pay/create-order");
    expect(init?.method).toBe("POST");
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
    // No items and no total: the server checks out the cart cookie and recomputes the amount.
    expect(JSON.parse(String(init?.body))).toEqual({ customer: ANA });
    expect(sdk.calls.customers).toEqual([ANA]);
    // Exactly what the server built from the stored order: they add up to what is charged.
    expect(sdk.calls.references).toEqual([REFERENCES]);
    expect(onOrderCreated).toHaveBeenCalledWith(ORDER);
  });

  it("sends the email, delivery and promo code read at click time; the SDK hears only the name and phone", async () => {
    const delivery = {
      method: "delivery" as const,
      zoneId: "2b0f8a50-5d33-4a43-8f8e-4b0b6b0c9a11",
      address: {
        province: "Luanda",
        municipality: "Belas",
        neighbourhood: "Talatona",
        street: "Rua 1",
        reference: "Farmácia",
      },
    };
    const view = await mountReady({ ...PROPS, details: { promoCode: "OLD" } });
    view.rerender({ ...PROPS, details: { email: "ana@exemplo.ao", delivery, promoCode: "BEMVINDO10" } });
    await settle();
    const fetchMock = stubCreateOrder();
    await callback(() => onlyButton().config.createOrder());
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      customer: { ...ANA, email: "ana@exemplo.ao" },
      delivery,
      promoCode: "BEMVINDO10",
    });
    expect(sdk.calls.customers).toEqual([ANA]);
  });

  it("refuses an answer without payment references: nothing reaches the SDK", async () => {
    await mountReady(PROPS);
    const { paymentReferences: _dropped, ...withoutReferences } = ORDER;
    stubCreateOrder(() => Response.json(withoutReferences));
    const { error } = await callback(() => onlyButton().config.createOrder());
    expect(error).toBeInstanceOf(PayOrderError);
    expect((error as PayOrderError).code).toBe("invalid_response");
    expect(sdk.calls.references).toEqual([]);
  });

  it("without a customer posts an empty object and does not call addCustomerInfo", async () => {
    await mountReady({ ...PROPS, customer: undefined });
    const fetchMock = stubCreateOrder();
    await callback(() => onlyButton().config.createOrder());
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe("{}");
    expect(sdk.calls.customers).toEqual([]);
  });

  it.each(["", "   "])("throws on an empty referenceNumber (%j) and shows the error", async (referenceNumber) => {
    const onOrderCreated = vi.fn();
    const view = await mountReady({ ...PROPS, onOrderCreated });
    stubCreateOrder(() => Response.json({ ...ORDER, referenceNumber }));
    const { value, error } = await callback(() => onlyButton().config.createOrder());

    expect(value).toBeUndefined();
    expect(error?.message).toBe("the shop returned no payment reference");
    expect(view.alert()?.getAttribute("role")).toBe("alert");
    expect(view.alert()?.textContent).toContain("Não foi possível iniciar o pagamento");
    // The English message is for the log; the Portuguese page says it in Portuguese.
    expect(view.alert()?.textContent).toContain(pt.payButton.orderErrors.invalid_response);
    expect(view.alert()?.textContent).not.toContain("the shop returned");
    expect(sdk.calls.references).toEqual([]);
    expect(onOrderCreated).not.toHaveBeenCalled();
  });

  it("throws the server's code and message on a 503 answer and shows the code's sentence", async () => {
    const view = await mountReady({ ...PROPS, lang: "en" });
    const message = "the order could not be created; nothing was charged, please try again";
    stubCreateOrder(() => Response.json({ error: { code: "unavailable", message } }, { status: 503 }));
    const { error } = await callback(() => onlyButton().config.createOrder());

    expect(error).toBeInstanceOf(PayOrderError);
    expect(error).toMatchObject({ code: "unavailable", message });
    expect(view.alert()?.textContent).toBe(
      "The payment could not be started. Nothing was charged.The shop could not create the order. Try again in a moment.",
    );
    expect(sdk.calls.references).toEqual([]);

    // The next attempt starts clean: a success clears the alert.
    stubCreateOrder();
    await callback(() => onlyButton().config.createOrder());
    expect(view.alert()).toBeNull();
  });
});

describe("PayButton: callbacks", () => {
  async function readyWithOrder() {
    const view = await mountReady();
    stubCreateOrder();
    await callback(() => onlyButton().config.createOrder());
    return view;
  }

  it("onApprove goes to our order's success page only once the popup has closed, whatever the data says", async () => {
    await readyWithOrder();
    const { actions, closePopup, onClosed } = popupActions();
    await callback(() => onlyButton().config.onApprove({ payment: { orderId: "someone-elses-order" } }, actions));
    expect(onClosed).toHaveLength(1);
    expect(router.push).not.toHaveBeenCalled();
    closePopup();
    expect(router.push.mock.calls).toEqual([[`/checkout/success/${ORDER.externalTransactionId}`]]);
  });

  it("onPending goes to our order's pending page once the popup has closed", async () => {
    await readyWithOrder();
    const { actions, closePopup } = popupActions();
    await callback(() => onlyButton().config.onPending({}, actions));
    expect(router.push).not.toHaveBeenCalled();
    closePopup();
    expect(router.push.mock.calls).toEqual([[`/checkout/pending/${ORDER.externalTransactionId}`]]);
  });

  it("onCancel goes back to the cart, naming the cancelled order", async () => {
    await readyWithOrder();
    await callback(() => onlyButton().config.onCancel());
    expect(router.push.mock.calls).toEqual([[`/cart?cancelled=${ORDER.externalTransactionId}`]]);
  });

  it("onCancel before any order goes to the cart", async () => {
    await mountReady();
    await callback(() => onlyButton().config.onCancel());
    expect(router.push.mock.calls).toEqual([["/cart"]]);
  });

  it("onApprove before any order navigates nowhere and says something went wrong", async () => {
    const view = await mountReady();
    const { actions, onClosed } = popupActions();
    await callback(() => onlyButton().config.onApprove({}, actions));
    expect(onClosed).toHaveLength(0);
    expect(view.alert()?.textContent).toContain("Ocorreu um erro no pagamento");
  });

  it("onError shows an alert next to the button and logs the error", async () => {
    const view = await mountReady();
    expect(view.alert()).toBeNull();
    const sdkError = new Error("Pay: the checkout failed: unknown");
    await callback(() => onlyButton().config.onError(sdkError));
    expect(view.alert()?.getAttribute("role")).toBe("alert");
    expect(view.alert()?.textContent).toBe("Ocorreu um erro no pagamento. Pode tentar novamente.");
    expect(view.wrapper().contains(view.alert())).toBe(true);
    expect(consoleError).toHaveBeenCalledWith(expect.stringMatching(/^pay button:/), sdkError);
  });

  it("unmounting empties the container and turns late callbacks into no-ops", async () => {
    const view = await readyWithOrder();
    const button = onlyButton();
    const container = button.container!;
    expect(container.childElementCount).toBe(1);
    const fetchMock = stubCreateOrder();
    consoleError.mockClear();

    view.unmount();
    expect(container.childElementCount).toBe(0);
    const { actions, onClosed } = popupActions();
    await callback(() => button.config.onApprove({}, actions));
    await callback(() => button.config.onPending({}, actions));
    await callback(() => button.config.onCancel());
    await callback(() => button.config.onError(new Error("late")));
    const { error } = await callback(() => button.config.createOrder());

    expect(error).toBeInstanceOf(Error);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onClosed).toHaveLength(0);
    expect(router.push).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("an order answered after unmounting is not handed to the SDK or the page", async () => {
    const onOrderCreated = vi.fn();
    const view = await mountReady({ ...PROPS, onOrderCreated });
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal("fetch", () => new Promise<Response>((resolve) => (answer = resolve)));
    let pending: Promise<string> = Promise.resolve("");
    act(() => {
      pending = onlyButton().config.createOrder();
    });
    view.unmount();
    answer(Response.json(ORDER));
    await expect(pending).rejects.toThrow("no longer on the page");
    expect(sdk.calls.references).toEqual([]);
    expect(onOrderCreated).not.toHaveBeenCalled();
  });
});

describe("PayButton: what the shopper is told when the order cannot be created", () => {
  const json = (status: number, code: string, message: string) => () =>
    Response.json({ error: { code, message } }, { status });
  const answers: [string, keyof typeof pt.payButton.orderErrors, () => Response | Promise<Response>][] = [
    ["the shop unreachable", "network", () => Promise.reject(new TypeError("Failed to fetch"))],
    ["a 502 page from a proxy", "unavailable", () => new Response("<h1>Bad gateway</h1>", { status: 502 })],
    ["a 404 without a body", "invalid_response", () => new Response(null, { status: 404 })],
    ["out of stock", "out_of_stock", json(409, "out_of_stock", "not enough Café in stock for 3")],
    ["too many attempts from this address", "rate_limited", json(429, "rate_limited", "too many orders")],
    ["too many unpaid orders", "too_many_open_orders", json(429, "too_many_open_orders", "there are already 3")],
    [
      "the payment service down",
      "payment_service_unavailable",
      json(503, "payment_service_unavailable", "the payment service is not answering"),
    ],
    ["a code this shop has no sentence for", "other", json(418, "teapot", "short and stout")],
    ["an answer without an order id", "invalid_response", () => Response.json({ ...ORDER, externalTransactionId: "" })],
  ];

  it.each(answers)(
    "%s: says orderErrors.%s in the page's language, never the English message",
    async (_what, code, answer) => {
      for (const [lang, strings] of [
        ["pt", pt],
        ["en", en],
      ] as const) {
        const view = await mountReady({ ...PROPS, lang });
        vi.stubGlobal("fetch", vi.fn(answer));
        const { error } = await callback(() => sdk.calls.buttons.at(-1)!.config.createOrder());
        expect(error).toBeInstanceOf(PayOrderError);
        expect(view.alert()?.textContent).toBe(strings.payButton.orderFailed + strings.payButton.orderErrors[code]);
        view.unmount();
      }
    },
  );
});

describe("PayButton: onError", () => {
  it("is called once with kind order for a createOrder failure, though the SDK reports it too", async () => {
    const onError = vi.fn();
    await mountReady({ ...PROPS, onError });
    stubCreateOrder(() =>
      Response.json({ error: { code: "cart_empty", message: "the cart is empty" } }, { status: 422 }),
    );
    const { error } = await callback(() => onlyButton().config.createOrder());
    // The SDK hands createOrder's failure to onError, as the sandbox's does.
    await callback(() => onlyButton().config.onError(error));
    expect(onError.mock.calls).toEqual([[error, "order"]]);
  });

  it("is called with kind payment for an error the SDK reports, the latest callback at the time", async () => {
    const first = vi.fn();
    const latestOnError = vi.fn();
    const view = await mountReady({ ...PROPS, onError: first });
    view.rerender({ ...PROPS, onError: latestOnError });
    const sdkError = new Error("Pay: the checkout failed: unknown");
    await callback(() => onlyButton().config.onError(sdkError));
    expect(latestOnError.mock.calls).toEqual([[sdkError, "payment"]]);
    expect(first).not.toHaveBeenCalled();
    expect(sdk.calls.buttons).toHaveLength(1);
  });

  it("is called with kind load when the SDK script fails", async () => {
    const onError = vi.fn();
    mount({ ...PROPS, onError });
    sdkScripts()[0]!.dispatchEvent(new Event("error"));
    await settle();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringContaining(SDK_URL) }),
      "load",
    );
  });
});

describe("PayButton: a popup the browser blocked", () => {
  it.each([
    ["pt", pt],
    ["en", en],
  ] as const)("says so in %s, with what to do", async (lang, strings) => {
    const onError = vi.fn();
    const view = await mountReady({ ...PROPS, lang, onError });
    // The sandbox SDK's words (packages/pay-sandbox/assets/pay.js).
    const blocked = new Error("Pay: the browser blocked the payment popup; allow popups for this site and try again");
    await callback(() => onlyButton().config.onError(blocked));
    expect(view.alert()?.textContent).toBe(strings.payButton.popupBlocked);
    expect(onError).toHaveBeenCalledWith(blocked, "payment");
  });
});

describe("PayButton: a configuration the SDK refuses", () => {
  it("says the shop is not set up, not to check the connection, and offers no Try again", async () => {
    const onError = vi.fn();
    const view = mount({ ...PROPS, onError });
    const refusal = new TypeError(
      "Pay: Pay(publishableKey) needs a publishable key starting with pk_test_ or pk_live_",
    );
    window.Pay = () => {
      throw refusal;
    };
    sdkScripts()[0]!.dispatchEvent(new Event("load"));
    await settle();

    expect(view.wrapper().dataset.state).toBe("error");
    expect(view.alert()?.textContent).toBe(pt.payButton.configFailed);
    expect(view.alert()?.textContent).not.toContain("ligação");
    expect(view.wrapper().querySelector("button")).toBeNull();
    expect(onError.mock.calls).toEqual([[refusal, "config"]]);
    expect(consoleError).toHaveBeenCalledWith(expect.stringMatching(/^pay button:/), refusal);
  });
});

describe("PayButton: a failed load", () => {
  it("shows the error with Try again, which inserts a fresh tag and renders the button", async () => {
    const view = mount({ ...PROPS, lang: "en" });
    const failedTag = sdkScripts()[0]!;
    failedTag.dispatchEvent(new Event("error"));
    await settle();

    expect(view.wrapper().dataset.state).toBe("error");
    expect(view.wrapper().getAttribute("aria-busy")).toBe("false");
    expect(view.alert()?.getAttribute("role")).toBe("alert");
    expect(view.alert()?.textContent).toBe("The payment button could not be loaded. Check the connection.");
    expect(sdkScripts()).toHaveLength(0);
    expect(consoleError).toHaveBeenCalledWith(expect.stringMatching(/^pay button:/), expect.any(Error));

    const retry = Array.from(view.wrapper().querySelectorAll("button")).find((b) => b.textContent === "Try again");
    act(() => retry!.click());
    expect(view.wrapper().dataset.state).toBe("loading");
    expect(view.alert()).toBeNull();
    expect(sdkScripts()).toHaveLength(1);
    expect(sdkScripts()[0]).not.toBe(failedTag);

    await loadSdk();
    expect(view.wrapper().dataset.state).toBe("ready");
    expect(onlyButton().container?.childElementCount).toBe(1);
  });

  it("shows the error when the SDK's render throws, leaving nothing of the half-rendered button", async () => {
    const view = mount();
    window.Pay = () => ({
      generateButton: () => ({
        render(selector) {
          document.querySelector(selector)?.append(document.createElement("iframe"));
          throw new Error("invalid publishable key");
        },
      }),
    });
    sdkScripts()[0]!.dispatchEvent(new Event("load"));
    await settle();
    expect(view.wrapper().dataset.state).toBe("error");
    expect(view.wrapper().querySelector("iframe")).toBeNull();
    expect(consoleError).toHaveBeenCalledWith(expect.stringMatching(/^pay button:/), expect.any(Error));
  });

  it("says Tentar novamente in Portuguese", async () => {
    const view = mount();
    sdkScripts()[0]!.dispatchEvent(new Event("error"));
    await settle();
    expect(view.wrapper().querySelector("button")?.textContent).toBe("Tentar novamente");
    expect(view.alert()?.textContent).toContain("Não foi possível carregar o botão de pagamento");
  });
});

describe("idSelector", () => {
  it.each([":r1:", "«r1»", "_r_1_", "pay-button-:R2a:", "1st", "a.b c"])("matches exactly the element %j", (id) => {
    const element = document.createElement("div");
    element.id = id;
    document.body.append(element, document.createElement("div"));
    expect(document.querySelectorAll(idSelector(id))).toEqual(document.querySelectorAll(`[id="${id}"]`));
    expect(document.querySelector(idSelector(id))).toBe(element);
  });
});
