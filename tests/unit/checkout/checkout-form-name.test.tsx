// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CheckoutForm } from "@/components/checkout/checkout-form";
import { en, pt } from "@/lib/i18n/dictionaries";

// The checkout form's name field, in the browser (jsdom): it checks the name with the server's
// schema (lib/orders/customer-name-rules.ts) and says, in the shopper's language, why a name
// carrying an address, a phone or markup is not taken, apart from an empty one.

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));
Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

function render(lang: "pt" | "en") {
  act(() =>
    root.render(
      <CheckoutForm
        lang={lang}
        publishableKey="pk_test_x"
        sdkUrl="https://sdk.pay.test/pay.js"
        lines={[{ description: "Café", unitPriceAoa: 2_500, quantity: 1, stock: 5 }]}
        subtotalAoa={2_500}
        delivery={{ zones: [], pickupPoints: [] }}
      />,
    ),
  );
}

/** Types `value` into the name field as a shopper does, then leaves it. */
function typeName(value: string) {
  const input = container.querySelector<HTMLInputElement>('input[name="name"]')!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  act(() => {
    setValue.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  act(() => {
    input.focus();
    input.blur();
  });
  return {
    invalid: input.getAttribute("aria-invalid"),
    message: document.getElementById(input.getAttribute("aria-describedby")!)!.textContent,
  };
}

describe("the checkout form's name", () => {
  it.each([
    ["pt", pt],
    ["en", en],
  ] as const)("in %s: a name with an address or a phone says so; an empty one asks for the name", (lang, t) => {
    render(lang);
    expect(typeName("GANHOU 500.000 Kz! Reclame ja em https://premio-loja.example/kz")).toEqual({
      invalid: "true",
      message: t.checkout.nameNotAName,
    });
    expect(typeName("Ana 923 456 789")).toEqual({ invalid: "true", message: t.checkout.nameNotAName });
    expect(typeName("  ")).toEqual({ invalid: "true", message: t.checkout.nameInvalid });
    expect(typeName("Maria José D'Almeida")).toEqual({ invalid: null, message: "" });
  });
});
