// `npm run db:migrate`: apply pending migrations to the configured database (PGlite under DATA_DIR by default).
import { withCommandDatabase } from './database';

await withCommandDatabase(async (database) => {
  console.log(`Migrations applied (${database.kind}).`);
});
