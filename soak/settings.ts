/**
 * The soak's settings, read once from the environment (soak/README.md lists them). The defaults
 * are the short run CI can afford; SOAK_DURATION_SECONDS=600 SOAK_SHOPPERS=300 SOAK_SCARCE_STOCK=10
 * is the long one.
 */
export interface SoakSettings {
  /** Seconds shoppers keep arriving. */
  durationSeconds: number;
  /** Shoppers in all, arriving spread over the duration. */
  shoppers: number;
  /** The shop's ORDER_HOLD_SECONDS: short, so holds run out within the run. */
  holdSeconds: number;
  /** Variants made scarce, and the units each keeps. */
  scarceVariants: number;
  scarceStock: number;
  /** One-use promo codes. */
  promoCodes: number;
  /** Whether to restart PostgreSQL and kill an app instance midway. */
  faults: boolean;
  /** Reuse .next/ instead of running `next build`. */
  skipBuild: boolean;
  /** Seed of the shoppers' choices, for a run that can be told again. */
  seed: number;
}

function integer(name: string, fallback: number, min: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be a whole number ≥ ${min}, not "${text}"`);
  return value;
}

export function readSettings(): SoakSettings {
  return {
    durationSeconds: integer("SOAK_DURATION_SECONDS", 60, 10),
    shoppers: integer("SOAK_SHOPPERS", 120, 1),
    holdSeconds: integer("SOAK_HOLD_SECONDS", 20, 5),
    scarceVariants: integer("SOAK_SCARCE_VARIANTS", 4, 1),
    scarceStock: integer("SOAK_SCARCE_STOCK", 3, 0),
    promoCodes: integer("SOAK_PROMO_CODES", 5, 0),
    faults: process.env.SOAK_FAULTS !== "0",
    skipBuild: process.env.SOAK_SKIP_BUILD === "1",
    seed: integer("SOAK_SEED", Math.floor(Math.random() * 1_000_000), 0),
  };
}
