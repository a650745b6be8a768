// Creates (or drops) the PostgreSQL databases of one CI run, so runs never share state:
//   node scripts/ci-database.mjs create   → prints the URL of a fresh database
//   node scripts/ci-database.mjs drop <name>  → drops it and the per-worker databases derived from it
import pg from 'pg';

const server = process.env.CI_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const [command, name] = process.argv.slice(2);
const client = new pg.Client({ connectionString: server });
await client.connect();
try {
  if (command === 'create') {
    const database = `simcode_ci_${Date.now().toString(36)}_${process.pid}`;
    await client.query(`CREATE DATABASE "${database}"`);
    const url = new URL(server);
    url.pathname = `/${database}`;
    console.log(url.toString());
  } else if (command === 'drop' && name && /^simcode_ci_[a-z0-9_]+$/.test(name)) {
    const { rows } = await client.query(
      'select datname from pg_database where datname = $1 or datname like $2',
      [name, `${name}_w%`],
    );
    for (const row of rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  } else {
    console.error('usage: ci-database.mjs create | drop <simcode_ci_...>');
    process.exit(2);
  }
} finally {
  await client.end();
}
