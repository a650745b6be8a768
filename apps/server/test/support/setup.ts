import { beforeEach } from 'vitest';
import { resetDatabase, testDatabaseIfOpen } from './database';

// Tests that never touch the database (pure units, provider adapters) do not pay for opening one.
beforeEach(async () => {
  const handle = await testDatabaseIfOpen();
  if (handle) await resetDatabase(handle);
});
