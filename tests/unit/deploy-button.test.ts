import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

// The README's Deploy button is the first thing a newcomer clicks: it must ask for every
// variable the shop cannot start without, create the database, and point at the README's
// configuration section of this very repository.

const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
const envExample = await readFile(new URL("../../.env.example", import.meta.url), "utf8");

const REQUIRED = [
  "PAY_PUBLISHABLE_KEY",
  "PAY_CLIENT_ID",
  "PAY_CLIENT_SECRET",
  "PAY_WEBHOOK_SECRET",
  "PAY_API_BASE_URL",
  "PAY_SDK_URL",
  "CRON_SECRET",
];

function deployButton(): URL {
  const match =
    /\[!\[Deploy with Vercel\]\(https:\/\/vercel\.com\/button\)\]\((https:\/\/vercel\.com\/new\/clone\?[^)\s]+)\)/.exec(
      readme,
    );
  expect(match, "the README has a Deploy with Vercel button").not.toBeNull();
  return new URL(match![1]!);
}

describe("the README's Deploy button", () => {
  it("comes before the quick start", () => {
    expect(readme.indexOf("vercel.com/new/clone")).toBeLessThan(readme.indexOf("## Quick start"));
  });

  it("clones this repository and asks for every required variable, each documented", () => {
    const button = deployButton();
    expect(button.searchParams.get("repository-url")).toBe(
      pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, ""),
    );
    const env = button.searchParams.get("env")!.split(",");
    expect(env).toEqual(expect.arrayContaining(REQUIRED));
    for (const name of env) {
      expect(envExample, `${name} in .env.example`).toMatch(new RegExp(`^${name}=`, "m"));
      expect(readme, `${name} in a table of the README's configuration`).toMatch(
        new RegExp(`^\\|[^\\n]*\`${name}\``, "m"),
      );
    }
    expect(JSON.parse(button.searchParams.get("envDefaults") ?? "{}")).toEqual({ SEED_DEMO_CATALOGUE: "1" });
    expect(button.searchParams.get("envDescription")).toBeTruthy();
  });

  it("links the variables to the README's configuration section", () => {
    const envLink = new URL(deployButton().searchParams.get("envLink")!);
    expect(`${envLink.origin}${envLink.pathname}`).toBe(pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, ""));
    expect(envLink.hash).toBe("#configuration");
    expect(readme).toMatch(/^## Configuration$/m);
  });

  it("creates a Neon Postgres database before the first build", () => {
    const stores = JSON.parse(deployButton().searchParams.get("stores")!);
    expect(stores).toEqual([
      { type: "integration", integrationSlug: "neon", productSlug: "neon", protocol: "storage" },
    ]);
  });
});
