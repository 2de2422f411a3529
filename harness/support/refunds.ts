import { expect } from "vitest";
import { db } from "@/lib/db/client";

/**
 * Every refund and correction of the shop is numbered 1 to refund_counter's last number, each
 * once: no number drawn and lost, none given twice. Read in one statement, so a refund another
 * test file commits meanwhile is in both halves or in neither: the test files that record refunds
 * run at the same time, so "the next number is mine" cannot be asserted, and this can.
 */
export async function expectRefundNumbersWithoutGaps(): Promise<void> {
  const [row] = await db().$queryRaw<{ last: number; numbers: number[] | null }[]>`
    SELECT (SELECT last_number FROM refund_counter WHERE id = 1) AS last,
           (SELECT array_agg(number ORDER BY number) FROM refunds) AS numbers`;
  expect(row!.numbers ?? []).toEqual(Array.from({ length: row!.last }, (_, i) => i + 1));
}
