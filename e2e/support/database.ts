import pg from "pg";
import { readE2eServerEnvironment } from "../../harness/server-environment";

/** One query on the e2e run's scratch database, to check what the shop recorded. */
export async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: readE2eServerEnvironment().databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
