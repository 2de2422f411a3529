/**
 * A refusal found inside a transaction, after it wrote something (a new cart, an image, a
 * product): thrown to roll the transaction back, and caught outside it to answer with `result`,
 * the module's own refusal. One class for every such transaction (products, gallery, variants,
 * promo codes, the cart), each catching it where it already catches its database errors.
 */
export class Rollback<Result> extends Error {
  constructor(readonly result: Result) {
    super("rolled back");
    this.name = "Rollback";
  }
}

/** `error`'s result when it is a Rollback thrown by this module's transaction; otherwise undefined. */
export const rolledBack = <Result>(error: unknown): Result | undefined =>
  error instanceof Rollback ? (error.result as Result) : undefined;
