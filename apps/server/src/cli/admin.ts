// `npm run admin -- create --username U --email E --password P` creates an administrator;
// `npm run admin -- promote U` makes an existing user one. Runs against the configured database.
// `backup --out F` and `restore --from F --data-dir D` save and restore the product's data.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ADMIN_ROLE, authMessages, validateRegister } from '@simcode/contract';
import { pino } from 'pino';
import { type Config, loadConfig } from '../config';
import { pgliteFolderHeld } from '../db/pglite-lock';
import { createUserEventBus } from '../db/user-events';
import { systemClock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { createAdminUsersService } from '../modules/admin/users/service';
import { hashPassword } from '../modules/auth/passwords';
import { requestBackup } from '../modules/backups/control-socket';
import { restoreBackup } from '../modules/backups/restore';
import { takeSnapshot, writeFileAtomically } from '../modules/backups/snapshot';
import { createUsersRepository } from '../modules/users/repository';
import { fail, withCommandDatabase } from './database';

const USAGE = `Usage:
  npm run admin -- create --username <name> --email <email> --password <password>
  npm run admin -- promote <username>
  npm run admin -- demote <username>
  npm run admin -- credit <username> <dollars> --note <why>   (a negative amount debits)
  npm run admin -- backup --out <file>      (while the server runs, too)
  npm run admin -- restore --from <file> --data-dir <new empty folder>   (embedded database)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    username: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    note: { type: 'string' },
    out: { type: 'string' },
    from: { type: 'string' },
    'data-dir': { type: 'string' },
  },
});
const [command, target] = positionals;
if (!command || !['create', 'promote', 'demote', 'credit', 'backup', 'restore'].includes(command))
  fail(USAGE);

if (command === 'restore') {
  const { from, 'data-dir': dataDir } = values;
  if (!from || !dataDir) fail(USAGE);
  try {
    const { createdAt } = await restoreBackup(from, dataDir);
    console.log(
      `Restored the backup of ${createdAt} into ${dataDir}. Start the server with DATA_DIR=${dataDir}.`,
    );
  } catch (error) {
    fail((error as Error).message);
  }
  process.exit(0);
}

if (command === 'backup') {
  const out = values.out;
  if (!out) fail(USAGE);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    fail((error as Error).message);
  }
  // The dump holds every account: created for its owner alone, like the embedded database's backups.
  process.umask(0o077);
  if (config.DATABASE_URL) {
    // PostgreSQL's own tool: a consistent dump while the servers run (README: restore with pg_restore).
    const dump = spawnSync(
      'pg_dump',
      ['--format=custom', '--no-owner', `--file=${out}`, config.DATABASE_URL],
      {
        stdio: 'inherit',
      },
    );
    if (dump.error) fail('pg_dump is not on PATH: install the PostgreSQL client tools, or see the README.');
    if (dump.status !== 0) fail('pg_dump failed (see above).');
    chmodSync(out, 0o600);
  } else {
    try {
      // The running server takes the snapshot (one process per data folder); else this process does.
      const backup = (await pgliteFolderHeld(config.DATA_DIR))
        ? await requestBackup(config.DATA_DIR)
        : await snapshotWithoutServer();
      await writeFileAtomically(out, backup);
    } catch (error) {
      fail(`The backup failed: ${(error as Error).message}`);
    }
  }
  console.log(`Backup written to ${out}.`);
  process.exit(0);
}

async function snapshotWithoutServer(): Promise<Buffer> {
  let backup: Buffer | undefined;
  await withCommandDatabase(async (database, config) => {
    backup = await takeSnapshot(database.pglite!, config.DATA_DIR, new Date());
  });
  return backup!;
}

await withCommandDatabase(async (database) => {
  const users = createUsersRepository(database.db);
  if (command === 'create') {
    const { username = '', email = '', password = '' } = values;
    // The same rules as the sign-up form; the captcha does not apply to an operator at the console.
    const rule = validateRegister({
      email,
      username,
      password,
      repeatPassword: password,
      captcha: 'console',
    });
    if (rule) fail(rule);
    if (await users.findByUsername(username)) fail(authMessages.usernameTaken);
    if (await users.findByEmail(email)) fail(authMessages.emailTaken);
    const user = await users.insert({
      username,
      email,
      passwordHash: await hashPassword(password),
      role: ADMIN_ROLE,
    });
    console.log(`Administrator ${user.username} created (id ${user.id}).`);
  } else {
    if (!target) fail(USAGE);
    const user = await users.findByUsername(target);
    if (!user) fail(`No user named ${target}.`);
    // Running servers on the same PostgreSQL hear of it from the database's triggers and refresh pages and
    // caches. The console's actions are audited like the web console's, under the name `console`.
    const events = await createUserEventBus(database, pino({ level: 'silent' }));
    const admin = createAdminUsersService({ db: database.db, events, clock: systemClock });
    const actor = { id: 0, username: 'console' };
    try {
      if (command === 'credit') {
        const amount = Number(positionals[2]);
        if (!Number.isFinite(amount) || !values.note) fail(USAGE);
        const result = await admin.adjust(actor, user.id, {
          amountCents: Math.round(amount * 100),
          reason: values.note,
          idempotencyKey: randomUUID(),
        });
        console.log(`${user.username}'s balance is now $${(result.user.balanceCents / 100).toFixed(2)}.`);
      } else {
        const role = command === 'promote' ? 'admin' : 'user';
        await admin.setRole(actor, user.id, role, `${command} from the command line`);
        console.log(
          `${user.username} is now ${role === 'admin' ? 'an administrator' : 'a regular user'}; their old tokens no longer work.`,
        );
      }
    } catch (error) {
      if (error instanceof AppError) fail(error.message);
      throw error;
    } finally {
      await events.close();
    }
  }
});
