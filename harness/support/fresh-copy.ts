import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));

export interface FreshCopy {
  dir: string;
  remove(): Promise<void>;
}

/**
 * The repository as a fresh clone of this working tree would hold it (tracked and new files,
 * nothing git ignores: no .next, no .env.local, no generated client), in a temporary directory,
 * with this checkout's node_modules hard-linked in: what `npm install` would give, without the
 * network or a minute of copying. Tools that rewrite a package file in place would change it
 * here too; npm, Next and the Vercel CLI replace files instead.
 */
export async function freshCopy(label: string): Promise<FreshCopy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pay-${label}-`));
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = stdout.split("\0").filter(Boolean);
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    // A tracked file deleted in the working tree is not part of the copy either.
    await copyFile(path.join(root, file), path.join(dir, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }
  await run("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
