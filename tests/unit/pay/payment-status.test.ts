import { describe, expect, it } from "vitest";
import { MAX_IDENTIFIER_LENGTH, readPaymentLookup, unusableIdentifier } from "@/lib/pay/api/payment-status";

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

  it.each([
    [{ data: { paymentStatus: "PEN", amount: 13000 } }, 13000],
    [{ data: { paymentStatus: "PEN", amount: "13000" } }, 13000],
    [{ data: { paymentStatus: "PEN", amount: 12.5 } }, 12.5],
    [{ data: { paymentStatus: "PEN", amount: "13 000 Kz" } }, undefined],
    [{ data: { paymentStatus: "PEN", amount: { value: 1 } } }, undefined],
    [{ data: { paymentStatus: "PEN" } }, undefined],
  ])("reads the amount of %j as %s", (body, amountAoa) => {
    const lookup = readPaymentLookup(body);
    expect(lookup.found && lookup.amountAoa).toBe(amountAoa);
    if (amountAoa === undefined) expect(Object.keys(lookup)).not.toContain("amountAoa");
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

describe("unusableIdentifier (values the database cannot store or index)", () => {
  const lookup = (data: Record<string, unknown>) => readPaymentLookup({ data: { paymentStatus: "PEN", ...data } });

  it.each([
    ["externalTransactionId", { externalTransactionId: "order_1\u0000" }],
    ["referenceNumber", { referenceNumber: "1".repeat(MAX_IDENTIFIER_LENGTH + 1) }],
    ["paymentReference", { paymentReference: "555\n444" }],
    ["entityNumber", { entity: { number: "10116\u007f" } }],
  ])("names %s with a control character or over the length limit", (field, data) => {
    expect(unusableIdentifier(lookup(data))).toBe(field);
  });

  it("accepts ordinary identifiers, grouped references and the longest allowed value", () => {
    expect(
      unusableIdentifier(
        lookup({
          externalTransactionId: "order_0b0c7d5e-8b6f-4f8a-9a6e-1f2e3d4c5b6a",
          referenceNumber: "1".repeat(MAX_IDENTIFIER_LENGTH),
          paymentReference: "555 444 333",
          entity: { number: 10116 },
        }),
      ),
    ).toBeUndefined();
    expect(unusableIdentifier({ found: false })).toBeUndefined();
  });
});
