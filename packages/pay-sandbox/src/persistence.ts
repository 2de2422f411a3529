import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { CANCEL_REASONS, PAYMENT_METHODS, PAYMENT_STATUSES, type StoreSnapshot } from "./store.js";

/**
 * Keeps the store in a JSON file across restarts of the sandbox. Writes are debounced (a
 * burst of orders is one write) and atomic (temporary file, then rename), so a crash or
 * Ctrl-C never leaves a half-written file behind.
 */

const WRITE_DELAY_MS = 50;

const optionalString = z.string().optional();
const snapshotSchema = z.object({
  version: z.literal(1),
  orders: z.array(
    z.object({
      externalTransactionId: z.string(),
      clientId: z.string(),
      applicationUUID: z.string(),
      name: z.string(),
      image: optionalString,
      amount: z.int(),
      quantity: z.int(),
      additionalInfo: optionalString,
      referenceNumber: z.string(),
      status: z.enum(PAYMENT_STATUSES),
      createdAt: z.string(),
      updatedAt: z.string(),
      paymentMethod: z.enum(PAYMENT_METHODS).optional(),
      paymentReference: optionalString,
      entityNumber: optionalString,
      referenceExpiresAt: optionalString,
      cancelReason: z.enum(CANCEL_REASONS).optional(),
    }),
  ),
  tokens: z.array(z.object({ digest: z.string(), expiresAt: z.number() })),
});

export function loadSnapshot(file: string): StoreSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: z.ZodSafeParseResult<z.infer<typeof snapshotSchema>>;
  try {
    parsed = snapshotSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    throw new Error(`The sandbox state file ${file} is not valid JSON; delete it to start with an empty sandbox.`);
  }
  if (!parsed.success) {
    throw new Error(
      `The sandbox state file ${file} has an unexpected shape; delete it to start with an empty sandbox.`,
    );
  }
  const { orders, tokens } = parsed.data;
  return { orders, tokens };
}

export class SnapshotWriter {
  private timer: NodeJS.Timeout | undefined;
  /** The write in progress, so writes never overlap and close() can wait for the last one. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly snapshot: () => StoreSnapshot,
    private readonly onError: (error: unknown) => void,
  ) {}

  schedule(): void {
    this.timer ??= setTimeout(() => void this.flush(), WRITE_DELAY_MS);
  }

  /** Writes now if a write is pending, and resolves when every write has landed. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write()).catch(this.onError);
    }
    return this.writing;
  }

  private async write(): Promise<void> {
    const temporary = `${this.file}.${process.pid}.tmp`;
    await mkdir(dirname(this.file), { recursive: true });
    await writeFile(temporary, `${JSON.stringify({ version: 1, ...this.snapshot() }, null, 2)}\n`);
    await rename(temporary, this.file);
  }
}
