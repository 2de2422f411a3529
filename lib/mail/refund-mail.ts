import { lineName } from "../catalog/variants";
import { pt } from "../i18n/pt";
import { formatAoa, formatSignedAoa } from "../money";
import { refundNoteNumber, type RefundNote } from "../orders/refund-note";
import { luanda, oneLine, quotedName } from "./order-confirmation";

/**
 * The mail the shopper receives, at the email given at checkout, when the shop records a refund of
 * their order or a correcting entry (lib/jobs/refund-mail.ts sends it): what went back, how and
 * when, the units returned, what remains paid, and the addresses of the refund note and of the
 * order. Portuguese, plain text, like the other shopper's mails (./shopper-mails.ts): whatever
 * the shop or the shopper typed (the reference, the products' names, the name) is kept to one line,
 * and the name is a quoted field, never part of the shop's sentences. Whether a returned unit went
 * back to stock is the shop's business, not the shopper's: only the units returned are named.
 */

export interface RefundMailLinks {
  /** APP_URL + /orders/<externalTransactionId>. */
  orderUrl: string;
  /** APP_URL + /orders/<externalTransactionId>/refunds/<number>. */
  noteUrl: string;
}

export function refundMail(note: RefundNote, links: RefundMailLinks): { subject: string; text: string } {
  const order = note.orderNumber;
  const number = refundNoteNumber(note.number);
  const corrected = note.correctsNumber === null ? null : refundNoteNumber(note.correctsNumber);
  const opening =
    corrected === null
      ? `A loja registou um reembolso de ${formatAoa(note.amountAoa)} da sua encomenda ${order}.`
      : `A loja registou uma correcção da nota de reembolso N.º ${corrected} da sua encomenda ${order}: ` +
        `${formatSignedAoa(note.amountAoa)}.`;
  const units = note.units.map(
    (unit) => `  ${unit.quantity} × ${oneLine(lineName(unit.productName, unit.variantTitle))}`,
  );
  const text = [
    "Olá,",
    "",
    opening,
    "",
    `${corrected === null ? "Nota de reembolso" : `Correcção da nota de reembolso N.º ${corrected}`}: N.º ${number}`,
    `Valor: ${formatSignedAoa(note.amountAoa)}`,
    `Método: ${pt.refundNote.methods[note.method]}`,
    ...(note.reference ? [`Referência: ${oneLine(note.reference)}`] : []),
    `Data: ${luanda.format(note.refundedAt)} (hora de Luanda)`,
    ...(units.length ? ["Artigos devolvidos:", ...units] : []),
    "",
    `Encomenda: ${order} (${note.externalTransactionId})`,
    `Em nome de: ${quotedName(note.customerName)}`,
    `Total pago: ${formatAoa(note.paidAoa)}`,
    `Reembolsado até esta nota: ${formatSignedAoa(note.refundedToDateAoa)}`,
    `Pago, descontados os reembolsos: ${formatSignedAoa(note.paidAoa - note.refundedToDateAoa)}`,
    "",
    `Nota de reembolso para imprimir: ${links.noteUrl}`,
    `Acompanhe a encomenda em: ${links.orderUrl}`,
    "",
    pt.refundNote.notCreditNote,
    "Mensagem automática da loja.",
  ].join("\n");
  const subject =
    corrected === null
      ? `Encomenda ${order}: reembolso de ${formatAoa(note.amountAoa)}`
      : `Encomenda ${order}: correcção da nota de reembolso N.º ${corrected}`;
  return { subject, text };
}
