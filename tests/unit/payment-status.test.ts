import { describe, expect, it } from "vitest";
import { readPaymentLookup } from "@/lib/pay/payment-status";

describe("readPaymentLookup (contract 2.6: fields not shown)", () => {
  it.each([
    ["data.paymentStatus", { data: { paymentStatus: "CON" } }],
    ["data.status", { data: { status: "CON" } }],
    ["top-level paymentStatus", { paymentStatus: "CON" }],
    ["top-level status", { status: "CON" }],
    ["first element of a data array", { data: [{ paymentStatus: "CON" }] }],
    ["lower case with spaces", { data: { paymentStatus: " con " } }],
  ])("reads the status from %s", (_, body) => {
    expect(readPaymentLookup(body)).toMatchObject({ found: true, status: "CON" });
  });

  it("prefers data over the envelope's own status (often an HTTP-ish 'success')", () => {
    expect(readPaymentLookup({ status: "success", data: { paymentStatus: "CAN" } })).toMatchObject({ status: "CAN" });
  });

  it("reads reference fields as strings, entity as a number or an object", () => {
    expect(
      readPaymentLookup({
        data: { paymentStatus: "PEN", referenceNumber: 123, paymentReference: "999 111", entity: { number: 10116 } },
      }),
    ).toEqual({
      found: true,
      status: "PEN",
      referenceNumber: "123",
      paymentReference: "999 111",
      entityNumber: "10116",
    });
    expect(readPaymentLookup({ data: { status: "PEN", entityNumber: "00123" } })).toMatchObject({
      entityNumber: "00123",
    });
  });

  it.each([
    ["an unknown code", { data: { paymentStatus: "PAID" } }],
    ["a number", { data: { paymentStatus: 1 } }],
    ["no status at all", { data: { referenceNumber: "1" } }],
  ])("yields status null for %s, so nothing changes", (_, body) => {
    expect(readPaymentLookup(body)).toMatchObject({ found: true, status: null });
  });

  it.each([
    ["null data", { data: null }],
    ["an empty data array", { data: [] }],
    ["a non-object body", "not json"],
    ["no body", undefined],
  ])("treats %s as not found", (_, body) => {
    expect(readPaymentLookup(body)).toEqual({ found: false });
  });
});
