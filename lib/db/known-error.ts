import { Prisma } from "../generated/prisma/client";

/**
 * The one reading of Prisma's known errors by their code, so the back office's writes name a
 * clash the same way everywhere: P2002 a unique value taken, P2003 a reference to a row that is
 * not there, P2025 the row to change is gone.
 */
export const isKnownError = (error: unknown, code: "P2002" | "P2003" | "P2025"): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/** A unique index refused the write (a slug, a SKU, a code or a name already taken). */
export const isUniqueViolation = (error: unknown): boolean => isKnownError(error, "P2002");
