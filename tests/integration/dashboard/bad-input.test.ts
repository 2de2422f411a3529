import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_APP, adminSessionCookie } from "../../../harness/support/admin";

// Whatever a query string holds, the dashboard's CSV and the orders' CSV answer 200 or a 4xx
// naming what is wrong: never a 5xx, and never a CSV that breaks off (the orders' is streamed, so
// a database error after its first byte would be a 200 with a cut body). Called as Next calls
// the route handlers, signed in, against the suite's database.

let cookie: string;
beforeAll(async () => {
  cookie = await adminSessionCookie();
});

/** The answer to GET `path`, its whole body read (a stream that fails rejects here). */
async function get(route: (request: NextRequest) => Promise<Response>, path: string) {
  const response = await route(new NextRequest(`${ADMIN_APP}${path}`, { headers: { cookie } }));
  return { status: response.status, body: await response.text(), type: response.headers.get("content-type") };
}

/** {@link get}, or a 599 carrying the error when the route threw or its body broke off. */
const sweptAnswer: typeof get = (route, path) =>
  get(route, path).catch((error: unknown) => ({ status: 599, body: String(error), type: "" }));

/** Dates a query string may carry: out of the calendar the shop counts in, impossible, or not dates at all. */
const DATES = [
  "0000-01-01",
  "0001-01-01",
  "0001-12-31",
  "1899-12-31",
  "1999-12-31",
  "9999-12-31",
  "10000-01-01",
  "+010000-01-01",
  "-1",
  "-0001-01-01",
  "2024-02-30",
  "2023-02-29",
  "2024-13-01",
  "2024-00-10",
  "2024-1-1",
  "ontem",
  "",
  "2024-01-01T00:00",
  "2024-01-01%00",
  "9".repeat(5000),
  "2024-01-01".repeat(500),
];
/** Periods by name, and what is not one. */
const PERIODS = ["custom", "7d", "year", "", "CUSTOM", "custom%00", "x".repeat(5000)];

const enc = encodeURIComponent;

/** Every query the sweep sends, with a good date beside each bad one (the bad one alone would also be asked). */
function queries(base: string): string[] {
  const out: string[] = [];
  for (const date of DATES) {
    out.push(`${base}period=custom&from=${enc(date)}&to=2024-06-01`);
    out.push(`${base}period=custom&from=2024-06-01&to=${enc(date)}`);
    out.push(`${base}period=custom&from=${enc(date)}&to=${enc(date)}`);
    out.push(`${base}from=${enc(date)}&to=${enc(date)}`);
  }
  for (const period of PERIODS) out.push(`${base}period=${enc(period)}&from=2024-01-01&to=2024-01-31`);
  // Too long, backwards, at the calendar's edges, repeated parameters.
  out.push(`${base}period=custom&from=2000-01-01&to=2100-12-31`);
  out.push(`${base}period=custom&from=2024-06-01&to=2024-01-01`);
  out.push(`${base}period=custom&from=2000-01-01&to=2000-01-01`);
  out.push(`${base}period=custom&from=2100-12-31&to=2100-12-31`);
  out.push(`${base}period=custom&period=7d&from=0001-01-01&from=2024-01-01&to=2024-01-02`);
  return out;
}

describe("GET /api/admin/dashboard/export, every parameter swept", () => {
  it("answers 200 with CSV or 400 naming the field, never a 5xx", async () => {
    const { GET } = await import("@/app/api/admin/dashboard/export/route");
    const failures: string[] = [];
    for (const series of ["revenue", "checkouts", "nope", ""]) {
      for (const query of queries(`/api/admin/dashboard/export?series=${series}&`)) {
        const answer = await sweptAnswer(GET, query);
        if (answer.status === 200 && answer.type?.startsWith("text/csv")) continue;
        if (answer.status === 400 && /"code":"invalid_(series|period)"/.test(answer.body)) continue;
        failures.push(`${answer.status} ${query.slice(0, 120)}: ${answer.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("names the date that is out of the dashboard's years", async () => {
    const { GET } = await import("@/app/api/admin/dashboard/export/route");
    for (const [query, field] of [
      ["period=custom&from=0001-01-01&to=2024-06-01", "from"],
      ["period=custom&from=2024-06-01&to=9999-12-31", "to"],
      ["period=custom&from=1999-12-31&to=2000-01-01", "from"],
    ] as const) {
      const answer = await get(GET, `/api/admin/dashboard/export?series=revenue&${query}`);
      expect(answer.status, query).toBe(400);
      const { error } = JSON.parse(answer.body) as { error: { code: string; message: string } };
      expect(error.code).toBe("invalid_period");
      expect(error.message).toMatch(new RegExp(`^${field} must be a date from 2000-01-01 to 2100-12-31`));
    }
  });
});

describe("GET /api/admin/orders/export, every parameter swept", () => {
  it("answers 200 with the whole CSV or 400 naming the field, never a 5xx or a cut body", async () => {
    const { GET } = await import("@/app/api/admin/orders/export/route");
    const failures: string[] = [];
    for (const by of ["created", "paid", "nope"]) {
      for (const query of queries(`/api/admin/orders/export?by=${by}&`)) {
        const answer = await sweptAnswer(GET, query);
        if (answer.status === 200 && answer.type?.startsWith("text/csv") && /^\uFEFF?order_id,/.test(answer.body))
          continue;
        if (answer.status === 400 && /"code":"invalid_(range|basis)"/.test(answer.body)) continue;
        failures.push(`${answer.status} ${query.slice(0, 120)}: ${answer.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("names the date that is out of the shop's years", async () => {
    const { GET } = await import("@/app/api/admin/orders/export/route");
    for (const [query, field] of [
      ["from=0001-01-01&to=2024-06-01", "from"],
      ["from=2024-06-01&to=9999-12-31", "to"],
    ] as const) {
      const answer = await get(GET, `/api/admin/orders/export?${query}`);
      expect(answer.status, query).toBe(400);
      const { error } = JSON.parse(answer.body) as { error: { code: string; message: string } };
      expect(error.code).toBe("invalid_range");
      expect(error.message).toMatch(new RegExp(`^${field} must be a date from 2000-01-01 to 2100-12-31`));
    }
  });
});
