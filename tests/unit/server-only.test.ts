import { execFile } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// Modules that hold or use the service's secrets must never reach a browser bundle: each imports
// `server-only`, which throws unless resolved under the react-server condition (as Next's server
// build and our `tsx --conditions=react-server` scripts do). Vitest aliases it away, so this
// imports each in a plain Node process, where the marker must refuse it.

const SECRET_HOLDERS = [
  "lib/pay/api/client.ts",
  "lib/pay/api/token-cache.ts",
  "lib/pay/webhooks/signature.ts",
  "lib/admin/staff-auth.ts",
  "lib/admin/staff-session.ts",
  "lib/admin/owner.ts",
  "lib/http/admin-sign-in.ts",
  "lib/messages/twilio.ts",
];
const root = fileURLToPath(new URL("../../", import.meta.url));

/** Imports `file` in a Node process of its own with tsx's loader: its exit code and stderr. */
function importAlone(file: string, conditions: string[]): Promise<{ code: number | null; stderr: string }> {
  const script = `await import(${JSON.stringify(pathToFileURL(`${root}${file}`).href)});`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", ...conditions, "--input-type=module", "-e", script],
      { cwd: root },
      (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
}

describe('import "server-only"', () => {
  it.each(SECRET_HOLDERS)("%s is refused outside the server and loads on it", async (file) => {
    const [plain, server] = await Promise.all([
      importAlone(file, []),
      importAlone(file, ["--conditions=react-server"]),
    ]);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toContain("cannot be imported from a Client Component");
    expect(server).toEqual({ code: 0, stderr: "" });
  });
});
