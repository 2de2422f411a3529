// How long another session keeps a product's row locked, as a checkout would meet it
// (bench/README.md, "CSV import"): every --interval ms, in its own connection to DATABASE_URL,
// `SELECT … FOR UPDATE NOWAIT` on the product --slug names, rolled back at once. Prints each span
// during which the row was locked (NOWAIT refused, 55P03) and their total, after --seconds or on
// Ctrl-C. A checkout that needs the row waits at most as long as the longest span.
//
//   npx tsx bench/lock-probe.ts --slug bench-5000 [--interval 20] [--seconds 120]
import { parseArgs } from "node:util";
import pg from "pg";

const { values } = parseArgs({
  options: {
    slug: { type: "string" },
    interval: { type: "string", default: "20" },
    seconds: { type: "string", default: "120" },
  },
});
if (!values.slug || !process.env.DATABASE_URL) throw new Error("DATABASE_URL and --slug are required");
const interval = Number(values.interval);
const deadline = performance.now() + Number(values.seconds) * 1000;

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
const spans: { from: number; to: number }[] = [];
let lockedSince: number | null = null;
let probes = 0;
let stopping = false;
process.on("SIGINT", () => (stopping = true));
process.on("SIGTERM", () => (stopping = true));

while (!stopping && performance.now() < deadline) {
  const at = performance.now();
  let locked = false;
  await client.query("BEGIN");
  try {
    await client.query("SELECT id FROM products WHERE slug = $1 FOR UPDATE NOWAIT", [values.slug]);
  } catch (error) {
    if ((error as { code?: string }).code !== "55P03") throw error;
    locked = true;
  } finally {
    await client.query("ROLLBACK");
  }
  probes += 1;
  if (locked && lockedSince === null) lockedSince = at;
  if (!locked && lockedSince !== null) {
    spans.push({ from: lockedSince, to: at });
    lockedSince = null;
  }
  await new Promise((resolve) => setTimeout(resolve, interval));
}
if (lockedSince !== null) spans.push({ from: lockedSince, to: performance.now() });
await client.end();

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const total = spans.reduce((sum, span) => sum + span.to - span.from, 0);
const longest = Math.max(0, ...spans.map((span) => span.to - span.from));
console.log(
  `[lock-probe] ${values.slug}: ${probes} probes every ${interval} ms; locked in ${spans.length} span(s), ` +
    `${seconds(total)} s in all, the longest ${seconds(longest)} s`,
);
