import { describe, expect, it } from "vitest";
import { customerMessage } from "@/lib/orders/customer-message";
import { shortOrderId } from "@/lib/orders/order-number";
import { customerWhatsappDigits, whatsappLink } from "@/lib/whatsapp";

const id = "order_7cdac2dd-1234-4abc-8def-0123456789ab";

describe("customerMessage", () => {
  it.each([
    ["PEN", null, "Olá! Sobre a sua encomenda 7CDAC2DD: ainda aguardamos a confirmação do pagamento."],
    [
      "CON",
      null,
      "Olá! A sua encomenda 7CDAC2DD está paga. Obrigado! Avisamos quando estiver a caminho ou pronta para levantar.",
    ],
    ["CON", "ready_for_pickup", "Olá! A sua encomenda 7CDAC2DD está pronta para levantar."],
    ["CON", "shipped", "Olá! A sua encomenda 7CDAC2DD foi enviada e está a caminho."],
    ["CON", "delivered", "Olá! A sua encomenda 7CDAC2DD foi entregue. Obrigado pela sua compra!"],
    ["CON", "collected", "Olá! A sua encomenda 7CDAC2DD foi levantada. Obrigado pela sua compra!"],
    ["CAN", null, "Olá! A sua encomenda 7CDAC2DD foi cancelada."],
  ] as const)("%s %s: %s", (status, fulfilmentState, text) => {
    expect(customerMessage({ externalTransactionId: id, status, fulfilmentState })).toBe(text);
  });

  it("names the order by the number its page shows, and nothing of the customer", () => {
    const text = customerMessage({ externalTransactionId: id, status: "CON", fulfilmentState: "shipped" });
    expect(text).toContain(shortOrderId(id));
    expect(text).not.toContain(id);
  });

  it("goes into the link to the customer's phone, encoded", () => {
    const href = whatsappLink(
      customerWhatsappDigits("923 456 789")!,
      customerMessage({ externalTransactionId: id, status: "CON", fulfilmentState: null }),
    );
    expect(href).toMatch(
      /^https:\/\/wa\.me\/244923456789\?text=Ol%C3%A1!%20A%20sua%20encomenda%207CDAC2DD%20est%C3%A1%20paga/,
    );
  });
});
