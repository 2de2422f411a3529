/**
 * The shop's one way of saying no. Every domain answers a refused change with a Refusal (the
 * HTTP status the edge answers with, a stable code, a message for a person, and the form field
 * the back office's page points at), and a refusal found inside a transaction that already wrote
 * something is thrown as a Rollback and returned outside it.
 */

/**
 * The statuses a refusal may carry: what a client can cause, or (502, 503) that the service or
 * the database could not answer in time and the same request may be tried again. Never a 500.
 */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503;

export interface Refusal<Code extends string = string, Field extends string = string> {
  ok: false;
  status: RefusalStatus;
  code: Code;
  message: string;
  /** The form field the refusal is about, when there is one. */
  field?: Field;
}

/** A refusal, built in one expression. */
export function refusal<Code extends string, Field extends string = never>(
  status: RefusalStatus,
  code: Code,
  message: string,
  field?: Field,
): Refusal<Code, Field> {
  return field === undefined ? { ok: false, status, code, message } : { ok: false, status, code, message, field };
}

/**
 * A refusal found inside a transaction, after it wrote something (a new cart, an image, a
 * product): thrown to roll the transaction back, and caught outside it to answer with `result`.
 */
export class Rollback<Result> extends Error {
  constructor(readonly result: Result) {
    super("rolled back");
    this.name = "Rollback";
  }
}

/** `error`'s result when it is a Rollback; otherwise undefined (the caller rethrows). */
export const rolledBack = <Result>(error: unknown): Result | undefined =>
  error instanceof Rollback ? (error.result as Result) : undefined;
