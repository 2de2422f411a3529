import { readFile } from "node:fs/promises";
import { resolve, sep } from "node:path";

/**
 * Where an import reads the image files its `images` column names: the CSV's own folder for
 * `npm run catalogue:import`. The back office's upload has none (it names only images the shop
 * already serves), so there such a name is a problem of its line.
 */
export interface ImageFiles {
  /** The bytes of `name` (relative, with `/`), or null when there is no such file inside the folder. */
  read(name: string): Promise<Uint8Array<ArrayBuffer> | null>;
}

export function folderFiles(folder: string): ImageFiles {
  const root = resolve(folder);
  return {
    async read(name) {
      const path = resolve(root, name);
      if (!path.startsWith(root + sep)) return null;
      try {
        return new Uint8Array(await readFile(path));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return null;
        throw error;
      }
    },
  };
}
