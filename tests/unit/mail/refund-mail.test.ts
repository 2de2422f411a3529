import { describe, expect, it } from "vitest";
import { refundMail } from "@/lib/mail/refund-mail";
import { formatAoa } from "@/lib/money";
import type { RefundNote } from "@/lib/orders/refund-note";

// The shopper's mail about a refund (lib/mail/refund-mail.ts): what went back, how, when, the
// units returned (never whether they were restocked), what remains paid, the note's and the
// order's addresses; a correcting entry names the note it corrects. What the shop or the shopper
// typed stays on one line of its own.

const ORDER = "order_7cdac2dd-1111-4222-8333-444455556666";
const links = {
  orderUrl: `https://loja.example/orders/${ORDER}`,
  noteUrl: `https://loja.example/orders/${ORDER}/refunds/42`,
};

const refundNoteFixture = (overrides: Partial<RefundNote> = {}): RefundNote => ({
  number: 42,
  amountAoa: 3_000,
  method: "bank_transfer",
  reference: "TRF-2026-0042",
  refundedAt: new Date("2026-12-24T14:30:00Z"),
  correctsNumber: null,
  units: [
    { productName: "Camisola Palancas Negras", variantTitle: "M, Vermelho", quantity: 1 },
    { productName: "Café do Amboim", variantTitle: "", quantity: 2 },
  ],
  externalTransactionId: ORDER,
  orderNumber: "7CDAC2DD",
  invoiceNumber: 7,
  customerName: "Ana Silva",
  orderedAt: new Date("2026-12-20T10:00:00Z"),
  paidAt: new Date("2026-12-20T10:05:00Z"),
  recordedAt: new Date("2026-12-24T14:31:00Z"),
  paidAoa: 8_400,
  refundedToDateAoa: 3_000,
  ...overrides,
});

describe("the refund mail", () => {
  it("says what went back, how, when, the units returned and what remains paid, with the note's and order's links", () => {
    const { subject, text } = refundMail(refundNoteFixture(), links);
    expect(subject).toBe(`Encomenda 7CDAC2DD: reembolso de ${formatAoa(3_000)}`);
    expect(text.split("\n")).toEqual([
      "Olá,",
      "",
      `A loja registou um reembolso de ${formatAoa(3_000)} da sua encomenda 7CDAC2DD.`,
      "",
      "Nota de reembolso: N.º 000042",
      `Valor: ${formatAoa(3_000)}`,
      "Método: Transferência bancária",
      "Referência: TRF-2026-0042",
      "Data: 24 de dezembro de 2026 às 15:30 (hora de Luanda)",
      "Artigos devolvidos:",
      "  1 × Camisola Palancas Negras, M, Vermelho",
      "  2 × Café do Amboim",
      "",
      `Encomenda: 7CDAC2DD (${ORDER})`,
      "Em nome de: «Ana Silva»",
      `Total pago: ${formatAoa(8_400)}`,
      `Reembolsado até esta nota: ${formatAoa(3_000)}`,
      `Pago, descontados os reembolsos: ${formatAoa(5_400)}`,
      "",
      `Nota de reembolso para imprimir: ${links.noteUrl}`,
      `Acompanhe a encomenda em: ${links.orderUrl}`,
      "",
      "Este documento não é uma nota de crédito certificada.",
      "Mensagem automática da loja.",
    ]);
    expect(text).not.toMatch(/stock|danific|reposto/i);
  });

  it("a refund in money alone names no units; without a reference, no reference line", () => {
    const { text } = refundMail(refundNoteFixture({ units: [], reference: null, method: "cash" }), links);
    expect(text).not.toContain("Artigos devolvidos");
    expect(text).not.toContain("Referência");
    expect(text).toContain("\nMétodo: Numerário\n");
  });

  it("a correcting entry names the note it corrects, with its negative amount", () => {
    const { subject, text } = refundMail(
      refundNoteFixture({ number: 43, amountAoa: -1_000, correctsNumber: 42, units: [], refundedToDateAoa: 2_000 }),
      links,
    );
    expect(subject).toBe("Encomenda 7CDAC2DD: correcção da nota de reembolso N.º 000042");
    expect(text).toContain(
      `\nA loja registou uma correcção da nota de reembolso N.º 000042 da sua encomenda 7CDAC2DD: −${formatAoa(1_000)}.\n`,
    );
    expect(text).toContain("\nCorrecção da nota de reembolso N.º 000042: N.º 000043\n");
    expect(text).toContain(`\nValor: −${formatAoa(1_000)}\n`);
    expect(text).toContain(`\nPago, descontados os reembolsos: ${formatAoa(6_400)}\n`);
  });

  it("keeps what was typed on its own line: a reference or a product's name cannot add lines", () => {
    const { text } = refundMail(
      refundNoteFixture({
        reference: "TRF\nPague já em https://falso.example",
        units: [{ productName: "Café\r\nGANHOU", variantTitle: "", quantity: 1 }],
      }),
      links,
    );
    const lines = text.split("\n");
    expect(lines).toContain("Referência: TRF Pague já em https://falso.example");
    expect(lines).toContain("  1 × Café GANHOU");
    expect(lines.filter((line) => line.startsWith("Pague"))).toEqual([]);
  });
});
