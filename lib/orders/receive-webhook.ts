import "server-only";
import { transactionBefore } from "../db/deadline";
import { pgRunner, type ConnectionPool, type SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import type { Logger } from "../log";
import { outcomeSelect, outcomeSql, paymentUpdateCtes, runUpdateStatement, type UpdateOutcome } from "./state-machine";
import { MAX_IDENTIFIER_LENGTH, readPaymentLookup, unusableIdentifier } from "../pay/api/payment-status";
import { verifySignature } from "../pay/webhooks/signature";
import { applyWithReferenceHoldCap, type UpdateRunner } from "./reference-holds";

/**
 * Endpoint B (contract 4.2, 5.2, 6.1): what to do with one webhook delivery, framework-free:
 * verify the signature over the raw bytes, only then parse, then record the delivery and apply its
 * status through the order state machine. Nothing slow happens here: side effects are jobs, run
 * after the reply.
 */

/** Deliveries are small JSON documents; anything bigger is refused before it is read whole. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

export type WebhookReceipt =
  | { kind: "rejected_signature"; reason: string }
  | { kind: "invalid"; code: "malformed_json" | "invalid_payload"; message: string }
  | {
      kind: "recorded";
      /** What the state machine did; "not_found" is stored as the event outcome "unmatched". */
      outcome: UpdateOutcome;
      externalTransactionId?: string;
      /** The order's hold had run out: the cached catalogue pages showed its units as free. */
      holdHadExpired?: boolean;
    };

export interface WebhookDeps {
  /** The connections the statements run on (dbPool()), through `pg` itself (lib/db/sql-runner.ts). */
  pool: ConnectionPool;
  webhookSecret: string;
  log: Logger;
  /** Epoch milliseconds: the database work commits before then, or not at all (DeadlineExceeded). */
  deadline?: number;
}

/**
 * Recording and applying are ONE statement, so a delivery is either fully recorded and applied or
 * not at all (and then we answer 5xx so the service retries). A PEN that brings a new bank
 * reference runs it in a short transaction, after counting the order's day-long holds under their
 * locks (lib/orders/reference-holds.ts). With a `deadline`, the database work runs in a
 * transaction that commits before it or not at all (lib/db/deadline.ts): a row another
 * transaction holds, or a pool with no free connection, ends in DeadlineExceeded, so the route
 * answers 503 in time and the service delivers again.
 */
export async function receiveWebhook(
  rawBody: Uint8Array,
  signatureHeader: string | null,
  deps: WebhookDeps,
): Promise<WebhookReceipt> {
  const signature = verifySignature(deps.webhookSecret, rawBody, signatureHeader);
  if (!signature.valid) {
    // Worth a warning: a steady stream of these usually means PAY_WEBHOOK_SECRET is wrong.
    deps.log("warn", "webhook.signature_rejected", { reason: signature.reason, bytes: rawBody.byteLength });
    return { kind: "rejected_signature", reason: signature.reason };
  }

  if (deps.deadline === undefined) return record(rawBody, pgRunner(deps.pool));
  // Already in the deadline's transaction: the reference cap's work joins it.
  return transactionBefore(deps.pool, deps.deadline, (tx) => record(rawBody, tx));
}

/** Everything a verified delivery writes: the event, and the status through the state machine. */
async function record(rawBody: Uint8Array, db: UpdateRunner): Promise<WebhookReceipt> {
  const body = parseJsonBytes(rawBody);
  if (body === undefined) {
    await recordUnprocessable(db, rawBody, "malformed_json");
    return { kind: "invalid", code: "malformed_json", message: "the body is not valid UTF-8 JSON" };
  }
  const lookup = readPaymentLookup(body);
  const unusable = unusableIdentifier(lookup);
  if (!lookup.found || unusable || !lookup.status || (!lookup.externalTransactionId && !lookup.referenceNumber)) {
    const message = !lookup.found
      ? "the body carries no order"
      : unusable
        ? `${unusable} has control characters or more than ${MAX_IDENTIFIER_LENGTH} characters`
        : !lookup.status
          ? "data.paymentStatus must be one of CON, PEN, CAN"
          : "data.externalTransactionId is missing";
    await recordUnprocessable(
      db,
      rawBody,
      "invalid_payload",
      lookup.found && unusable !== "externalTransactionId" ? lookup.externalTransactionId : undefined,
    );
    return { kind: "invalid", code: "invalid_payload", message };
  }

  const update = {
    status: lookup.status,
    paymentReference: lookup.paymentReference,
    entityNumber: lookup.entityNumber,
  };
  const orderIds = { externalTransactionId: lookup.externalTransactionId, referenceNumber: lookup.referenceNumber };
  // A new bank reference stretches the order's hold only under the cap on such holds.
  const result = await applyWithReferenceHoldCap(db, orderIds, update, (client, capped) => {
    const ctes = paymentUpdateCtes(orderIds, capped);
    // The delivery is logged by the run that applies it (not by one that must be retried).
    const outcome = outcomeSql(capped);
    return runUpdateStatement(
      client,
      Prisma.sql`${ctes}, event AS (
  INSERT INTO webhook_events (raw_body, external_transaction_id, payment_status, outcome, order_id)
  SELECT ${Buffer.from(rawBody)}, COALESCE(target.external_transaction_id, ${lookup.externalTransactionId ?? null}),
         ${lookup.status}, CASE WHEN target.id IS NULL THEN 'unmatched' ELSE ${outcome} END, target.id
  FROM (SELECT 1) AS one LEFT JOIN target ON true LEFT JOIN changed ON true
  WHERE ${outcome} <> 'retry'
  RETURNING id
)
${outcomeSelect(capped)}`,
    );
  });
  return {
    kind: "recorded",
    outcome: result.outcome,
    externalTransactionId: result.order?.externalTransactionId ?? lookup.externalTransactionId,
    ...(result.holdHadExpired ? { holdHadExpired: true } : {}),
  };
}

/** JSON from bytes that must be valid UTF-8: a lossy decode would hide a broken sender. */
function parseJsonBytes(rawBody: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(rawBody));
  } catch {
    return undefined;
  }
}

/** A verified delivery we cannot act on is still kept, raw, for whoever investigates it. */
async function recordUnprocessable(
  db: SqlRunner,
  rawBody: Uint8Array,
  outcome: "malformed_json" | "invalid_payload",
  externalTransactionId?: string,
): Promise<void> {
  await db.$queryRaw(Prisma.sql`
INSERT INTO webhook_events (raw_body, external_transaction_id, outcome)
VALUES (${Buffer.from(rawBody)}, ${externalTransactionId ?? null}, ${outcome})
RETURNING id`);
}
