import pg from "pg";

/** One short-lived connection for tooling (migrations, seeding, test setup), always closed. */
export async function withPgClient<T>(connectionString: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
