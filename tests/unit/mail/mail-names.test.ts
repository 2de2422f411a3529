import { describe, expect, it } from "vitest";
import { orderConfirmationMail } from "@/lib/mail/order-confirmation";
import { refundMail } from "@/lib/mail/refund-mail";
import { fulfilmentMail, shopperPaidMail, shopperReferenceMail, type ShopperMailOrder } from "@/lib/mail/shopper-mails";

// The shopper's name in the shop's mails (lib/mail/): whoever checks out chooses the name and the
// address the mails go to, so the name never reads as the shop's own sentence. The greeting is the
// shop's alone ("Olá,"); the name is one labelled, quoted field. An order kept from before the
// checkout refused such names still carries one, hence these names.

const SPAM = "GANHOU 500.000 Kz! Reclame já em https://premio-loja.example/kz";

const order = (customerName: string | null): ShopperMailOrder => ({
  externalTransactionId: "order_7cdac2dd-1111-4222-8333-444455556666",
  amountAoa: 8000,
  customerName,
  finalizedAt: new Date("2026-11-23T20:30:00Z"),
  lines: [{ productName: "Café", variantTitle: "", quantity: 2, unitPriceAoa: 4000 }],
  delivery: {
    method: "pickup",
    zone: null,
    address: null,
    pickup: { name: "Loja do Kinaxixi", address: "Largo do Kinaxixi, 3", hours: "9h às 18h" },
    breakdown: null,
    customerEmail: "ana@example.com",
    fulfilmentState: null,
  },
  pageUrl: "https://loja.example/orders/order_7cdac2dd-1111-4222-8333-444455556666",
});

const shopperMails = (name: string | null) => ({
  reference: shopperReferenceMail(order(name), {
    entityNumber: "00123",
    paymentReference: "987654321",
    validUntil: "2026-11-24T20:30:00Z",
  }),
  paid: shopperPaidMail(order(name)),
  fulfilment: fulfilmentMail(order(name), {
    state: "ready_for_pickup",
    at: new Date("2026-11-24T10:00:00Z"),
    note: null,
  }),
  refund: refundMail(
    {
      number: 1,
      amountAoa: 8000,
      method: "cash",
      reference: null,
      refundedAt: new Date("2026-11-25T10:00:00Z"),
      correctsNumber: null,
      units: [],
      externalTransactionId: "order_7cdac2dd-1111-4222-8333-444455556666",
      orderNumber: "7CDAC2DD",
      invoiceNumber: 1,
      customerName: name,
      orderedAt: new Date("2026-11-23T20:00:00Z"),
      paidAt: new Date("2026-11-23T20:30:00Z"),
      recordedAt: new Date("2026-11-25T10:00:00Z"),
      paidAoa: 8000,
      refundedToDateAoa: 8000,
    },
    { orderUrl: order(name).pageUrl, noteUrl: `${order(name).pageUrl}/refunds/1` },
  ),
});

describe("the shopper's mails", () => {
  it.each(Object.keys(shopperMails(null)) as (keyof ReturnType<typeof shopperMails>)[])(
    "%s: greets without the name and shows it once, quoted after its label",
    (kind) => {
      const { subject, text } = shopperMails(SPAM)[kind];
      const lines = text.split("\n");
      expect(lines[0]).toBe("Olá,");
      expect(subject).not.toContain("GANHOU");
      // The name's one appearance: its own line, labelled and quoted.
      expect(lines.filter((line) => line.includes("GANHOU"))).toEqual([`Em nome de: «${SPAM}»`]);
    },
  );

  it("a name cannot close its quote early or add a line", () => {
    const { text } = shopperPaidMail(order("Ana» Pague já em\nsite falso «x"));
    const lines = text.split("\n");
    expect(lines.filter((line) => line.includes("Ana"))).toEqual(["Em nome de: «Ana› Pague já em site falso ‹x»"]);
    expect(text.match(/«/g)).toHaveLength(1);
    expect(text.match(/»/g)).toHaveLength(1);
  });

  it("an order without a name says so with a dash", () => {
    expect(shopperPaidMail(order(null)).text).toContain("\nEm nome de: —\n");
    expect(shopperPaidMail(order("  ")).text).toContain("\nEm nome de: —\n");
  });
});

describe("the orders mailbox's mail", () => {
  it("quotes the customer's name after its label", () => {
    const { text } = orderConfirmationMail({
      id: "11111111-2222-4333-8444-555555555555",
      externalTransactionId: "order_7cdac2dd-1111-4222-8333-444455556666",
      referenceNumber: "R1",
      paymentReference: null,
      entityNumber: null,
      amountAoa: 8000,
      customerName: SPAM,
      customerPhone: "+244 923 000 111",
      finalizedAt: new Date("2026-11-23T20:30:00Z"),
      lines: [{ productName: "Café", variantTitle: "", sku: null, quantity: 2, unitPriceAoa: 4000 }],
    });
    expect(text.split("\n").filter((line) => line.includes("GANHOU"))).toEqual([`Cliente: «${SPAM}»`]);
  });
});
