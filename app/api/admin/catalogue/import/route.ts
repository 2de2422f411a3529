import type { NextRequest } from "next/server";
import { catalogImport } from "@/lib/http/catalog-csv-actions";
import { db } from "@/lib/db/client";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";

// The catalogue CSV into the shop (lib/catalog/csv/import.ts): `?dryRun=1` checks it, without
// it the file is imported in one transaction. A multipart form's `file` or a text/csv body.
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return catalogImport(request, () => ({ db: db(), images: postgresImageStore(db()) }));
}
