// @ts-check
import pg from "pg";

/**
 * One short-lived connection for tooling (migrations, seeding, test setup), always closed.
 * @template T
 * @param {string} connectionString
 * @param {(client: pg.Client) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withPgClient(connectionString, use) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
