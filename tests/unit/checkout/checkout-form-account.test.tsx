// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CheckoutForm, type CheckoutAccount } from "@/components/checkout/checkout-form";
import type { PayButtonProps } from "@/components/checkout/pay-button";
import { pt } from "@/lib/i18n/dictionaries";

// The checkout form for a signed-in shopper, in the browser (jsdom): filled from the account, the
// phone shown and never an input, the default saved address chosen for a delivery, another one
// typed with "Guardar este endereço"; and for a guest, the sign-in by phone offered. What the
// form would send is read from the PayButton it renders (replaced here by a stand-in).

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));
vi.mock("@/components/checkout/pay-button", () => ({
  PayButton: (props: PayButtonProps) => (
    <div data-testid="pay-button" data-sent={JSON.stringify({ customer: props.customer, details: props.details })} />
  ),
}));
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

const ZONE = { id: "zone-1", name: "Sul", feeAoa: 2_000, freeFromAoa: null, estimatedDays: 2 };
const delivery = {
  zones: [{ ...ZONE, municipalities: ["Talatona", "Belas"] }],
  pickupPoints: [{ id: "point-1", name: "Loja", address: "Rua Amílcar Cabral 10", hours: "9h–18h" }],
};
const home = {
  id: "address-1",
  province: "Luanda",
  municipality: "talatona",
  neighbourhood: "Camama",
  street: "Rua 5, casa 12",
  reference: "Ao lado da escola",
  isDefault: true,
};
const far = { ...home, id: "address-2", municipality: "Cacuaco", street: "Rua 9", isDefault: false };
const account = (changes: Partial<CheckoutAccount> = {}): CheckoutAccount => ({
  phone: "+244 923 111 222",
  name: "Ana Teste",
  email: "ana@exemplo.ao",
  nif: null,
  addresses: [home, far],
  canSaveAddress: true,
  ...changes,
});

function render(props: { account?: CheckoutAccount; signIn?: boolean }) {
  act(() =>
    root.render(
      <CheckoutForm
        lang="pt"
        publishableKey="pk_test_x"
        sdkUrl="https://sdk.pay.test/pay.js"
        lines={[{ description: "Café", unitPriceAoa: 2_500, quantity: 1, stock: 5 }]}
        subtotalAoa={2_500}
        delivery={delivery}
        {...props}
      />,
    ),
  );
}

const input = (name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`);
const sent = () => {
  const button = container.querySelector('[data-testid="pay-button"]');
  return button ? (JSON.parse(button.getAttribute("data-sent")!) as Record<string, any>) : null;
};
const radio = (label: string) =>
  [...container.querySelectorAll("label")]
    .find((candidate) => candidate.textContent?.startsWith(label))!
    .querySelector<HTMLInputElement>("input")!;
function type(field: HTMLInputElement, value: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  act(() => {
    setValue.call(field, value);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

describe("the checkout form of a signed-in shopper", () => {
  it("is filled from the account, shows the phone as text, and delivers to the default address", () => {
    render({ account: account(), signIn: true });
    expect(input("phone")).toBeNull();
    expect(container.querySelector('[data-testid="checkout-phone"]')!.textContent).toBe("+244 923 111 222");
    expect(input("name")!.value).toBe("Ana Teste");
    expect(input("email")!.value).toBe("ana@exemplo.ao");
    expect(input("nif")!.value).toBe("");
    // The default address's municipality is served: delivery to it is chosen, nothing to type.
    expect(radio(pt.checkout.homeDelivery).checked).toBe(true);
    expect(radio(home.street).checked).toBe(true);
    expect(input("street")).toBeNull();
    // One the zones do not serve is shown, not offered.
    expect(radio(far.street).disabled).toBe(true);
    expect(container.textContent).not.toContain(pt.checkout.signIn);
    expect(sent()).toEqual({
      customer: { name: "Ana Teste", phone: "+244 923 111 222" },
      details: {
        email: "ana@exemplo.ao",
        // The municipality as the zones spell it.
        delivery: { method: "delivery", address: { ...withoutId(home), municipality: "Talatona" } },
      },
    });
  });

  it('types another address, and sends "Guardar este endereço" only when ticked', () => {
    render({ account: account() });
    act(() => radio(pt.checkout.otherAddress).click());
    expect(input("street")).not.toBeNull();
    const typed = { neighbourhood: "Benfica", street: "Rua 7", reference: "Portão azul" };
    act(() => {
      const select = container.querySelector<HTMLSelectElement>('select[name="municipality"]')!;
      select.value = "Belas";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    for (const [name, value] of Object.entries(typed)) type(input(name)!, value);
    const address = { province: "Luanda", municipality: "Belas", ...typed };
    expect(sent()?.details).toEqual({ email: "ana@exemplo.ao", delivery: { method: "delivery", address } });
    act(() => input("saveAddress")!.click());
    expect(sent()?.details).toEqual({
      email: "ana@exemplo.ao",
      delivery: { method: "delivery", address },
      saveAddress: true,
    });
  });

  it("says the account is full instead of offering to save, and a pickup sends no address", () => {
    render({ account: account({ addresses: [], canSaveAddress: false }) });
    // No saved address: the first method on offer, as for a guest.
    expect(radio(pt.checkout.pickupAt("Loja")).checked).toBe(true);
    expect(sent()?.details).toEqual({
      email: "ana@exemplo.ao",
      delivery: { method: "pickup", pickupPointId: "point-1" },
    });
    act(() => radio(pt.checkout.homeDelivery).click());
    expect(input("saveAddress")).toBeNull();
    expect(container.querySelector('[data-testid="addresses-full"]')!.textContent).toBe(pt.checkout.addressesFull(10));
  });
});

describe("the checkout form of a guest", () => {
  it("offers the sign-in by phone while accounts are on, and keeps the phone an input", () => {
    render({ signIn: true });
    const link = [...container.querySelectorAll("a")].find((a) => a.textContent === pt.checkout.signIn)!;
    expect(link.getAttribute("href")).toBe("/account/sign-in?next=/checkout");
    expect(input("phone")).not.toBeNull();
    expect(input("saveAddress")).toBeNull();
  });

  it("offers no sign-in while accounts are off", () => {
    render({});
    expect(container.textContent).not.toContain(pt.checkout.signIn);
  });
});

function withoutId({ id: _id, isDefault: _isDefault, ...address }: typeof home) {
  return address;
}
