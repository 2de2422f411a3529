import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { untrustedProxyWarning } from "../../scripts/lib/forwarded-for.mjs";

// The self-hosted topology (compose.yaml, Caddyfile, docs/self-hosting.md): the app is reached
// through Caddy only, which it counts as one proxy, so no client can choose the address its rate
// limits count; and the server says so when it sees a proxy it does not count.

const root = path.resolve(import.meta.dirname, "../..");
const compose = () => readFile(path.join(root, "compose.yaml"), "utf8");

/** The lines of one top-level service of compose.yaml (two-space indented block). */
function service(text: string, name: string): string {
  const lines = text.split("\n");
  const start = lines.indexOf(`  ${name}:`);
  expect(start, `compose.yaml has a ${name} service`).toBeGreaterThan(-1);
  const end = lines.findIndex((line, index) => index > start && /^ {0,2}\S/.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

describe("compose publishes the app behind its proxy only", () => {
  it("the app's port is on the host's loopback, and it counts one proxy", async () => {
    const app = service(await compose(), "app");
    expect(app).toMatch(/ports:\n\s+- "127\.0\.0\.1:3000:3000"/);
    expect(app).toMatch(/TRUST_PROXY: "1"/);
    // No other service publishes the app's port on every interface.
    expect(await compose()).not.toMatch(/- "3000:3000"/);
  });

  it("Caddy fronts it with HTTPS for SITE_ADDRESS, passing every request to the app", async () => {
    const caddy = service(await compose(), "caddy");
    expect(caddy).toMatch(/image: caddy:2/);
    expect(caddy).toMatch(/- "443:443"/);
    expect(caddy).toMatch(/\.\/Caddyfile:\/etc\/caddy\/Caddyfile:ro/);
    const caddyfile = await readFile(path.join(root, "Caddyfile"), "utf8");
    expect(caddyfile).toMatch(/^\{\$SITE_ADDRESS:localhost\} \{$/m);
    expect(caddyfile).toMatch(/reverse_proxy app:3000/);
  });

  it("docs/self-hosting.md says which TRUST_PROXY each way of hosting needs", async () => {
    const docs = await readFile(path.join(root, "docs/self-hosting.md"), "utf8");
    for (const topology of ["compose.yaml with Caddy", "Your own reverse proxy", "No proxy", "Vercel"])
      expect(docs).toContain(topology);
  });
});

describe("the server warns about a proxy it does not count", () => {
  it("a forwarded header with TRUST_PROXY=0 (or unset) is worth a warning", () => {
    expect(untrustedProxyWarning("203.0.113.7", "0")).toMatch(/TRUST_PROXY=0/);
    expect(untrustedProxyWarning("203.0.113.7", undefined)).toMatch(/TRUST_PROXY=0/);
    expect(untrustedProxyWarning(["203.0.113.7", "10.0.0.2"], "")).toMatch(/set TRUST_PROXY/);
  });

  it("nothing without the header, or with the proxies counted", () => {
    expect(untrustedProxyWarning(undefined, "0")).toBeNull();
    expect(untrustedProxyWarning("  ", "0")).toBeNull();
    expect(untrustedProxyWarning("203.0.113.7", "1")).toBeNull();
    expect(untrustedProxyWarning("203.0.113.7, 10.0.0.2", "2")).toBeNull();
  });
});
