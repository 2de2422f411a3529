import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { adminAction, formBody } from "./admin-action";
import type { Actor } from "../admin/staff-events";
import type { ResolveOutcome } from "../orders/attention-admin";
import { webhookEventPagePath, orderPagePath } from "../orders/order-flash";
import { EXTERNAL_TRANSACTION_ID } from "../orders/order-number";
import {
  fulfilOrder,
  fulfilPaidAfterCancel,
  INVALID_FULFILMENT_BODY,
  INVALID_NOTE,
  NOT_FOUND,
  resolveWithNote,
  type OrderActionResult,
} from "../admin/order-actions";

/**
 * The routes of the back office's buttons on an order's page and a webhook delivery's page
 * (lib/admin/order-actions.ts does the work): ./admin-action.ts with the path's parameters
 * through zod (a malformed one is an unknown order, job or delivery: 404). A browser goes back to
 * the page with `?done=` or `?error=`; a JSON client gets `{ done, …details }` or the error.
 * Each button is pressed by the person the session names (the `actor`), whom its action records.
 */

export const orderParams = z.object({ externalTransactionId: z.string().regex(EXTERNAL_TRANSACTION_ID) });
export const jobParams = orderParams.extend({ jobId: z.uuid() });
export const deliveryParams = z.object({ id: z.uuid() });

/** A button of one of these pages: the body it reads, if any, and what it does. */
export interface PageButton<Input> {
  /** Read up to `maxBytes`; a body that cannot be read is refused as `unreadable`. */
  body?: { maxBytes: number; unreadable: OrderActionResult };
  action: (input: Input, fields: Record<string, unknown>, actor: Actor) => Promise<OrderActionResult>;
}

async function pageAction<Schema extends z.ZodType>(
  request: NextRequest,
  params: Promise<unknown>,
  schema: Schema,
  page: (input: z.infer<Schema>) => string,
  button: PageButton<z.infer<Schema>>,
  changesShopPages: boolean,
): Promise<Response> {
  const parsed = schema.safeParse(await params);
  const { body } = button;
  return adminAction<OrderActionResult>(request, {
    // Unused for a malformed parameter: an unknown order is a 404 for a browser too.
    page: parsed.success ? page(parsed.data) : "/admin",
    ...(body && {
      body: formBody(body.maxBytes),
      bodyRefused: () => (parsed.success ? body.unreadable : NOT_FOUND),
    }),
    action: async ({ fields }, { actor }) => (parsed.success ? button.action(parsed.data, fields, actor) : NOT_FOUND),
    json: (result) => ({ status: 200, body: { done: result.done, ...result.details } }),
    changesShopPages,
  });
}

/**
 * A button of an order's page. One that worked may have moved the order or run its jobs (a
 * release of stock among them): the cached catalogue follows.
 */
export const adminOrderAction = <Schema extends z.ZodType<{ externalTransactionId: string }>>(
  request: NextRequest,
  params: Promise<unknown>,
  schema: Schema,
  button: PageButton<z.infer<Schema>>,
) => pageAction(request, params, schema, (input) => orderPagePath(input.externalTransactionId), button, true);

/** A button of a webhook delivery's page. */
export const adminWebhookEventAction = (
  request: NextRequest,
  params: Promise<unknown>,
  button: PageButton<z.infer<typeof deliveryParams>>,
) => pageAction(request, params, deliveryParams, (input) => webhookEventPagePath(input.id), button, false);

/** The longest "mark resolved" body read: a note of 2000 characters, each up to 4 bytes, form-encoded. */
const MAX_NOTE_BYTES = 32 * 1024;

/** "Mark resolved", with the note of the page's form or a JSON client's `{ note }`. */
export const markResolved = <Input>(
  resolve: (input: Input, note: string, actor: Actor) => Promise<ResolveOutcome>,
): PageButton<Input> => ({
  body: { maxBytes: MAX_NOTE_BYTES, unreadable: INVALID_NOTE },
  action: (input, fields, actor) => resolveWithNote(fields, (note) => resolve(input, note, actor)),
});

/** The longest fulfilment body read: a note of 500 characters, each up to 4 bytes, form-encoded, and the state. */
const MAX_FULFILMENT_BODY_BYTES = 8 * 1024;

/**
 * A fulfilment step, `{ state, note? }`, by the person signed in (the order's history names them);
 * a mail job it enqueued goes to `runJobs`.
 */
export const fulfilmentStep = (
  deps: Parameters<typeof fulfilOrder>[3],
): PageButton<{ externalTransactionId: string }> => ({
  body: { maxBytes: MAX_FULFILMENT_BODY_BYTES, unreadable: INVALID_FULFILMENT_BODY },
  action: ({ externalTransactionId }, fields, actor) => fulfilOrder(externalTransactionId, fields, actor, deps),
});

/**
 * "Cumprir" an order paid after it was cancelled (a button: no body), by the person signed in; the
 * jobs of its payment go to `runJobs`. Units taken from stock refresh the cached catalogue pages.
 */
export const fulfilAfterCancelButton = (
  deps: Parameters<typeof fulfilPaidAfterCancel>[2],
): PageButton<{ externalTransactionId: string }> => ({
  action: ({ externalTransactionId }, _fields, actor) => fulfilPaidAfterCancel(externalTransactionId, actor, deps),
});
