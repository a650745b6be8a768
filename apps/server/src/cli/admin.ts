// `npm run admin -- create --username U --email E --password P` creates an administrator;
// `npm run admin -- promote U` makes an existing user one. Runs against the configured database.
import { parseArgs } from 'node:util';
import { ADMIN_ROLE, authMessages, validateRegister } from '@simcode/contract';
import { pino } from 'pino';
import { createUserEventBus } from '../lib/events';
import { createAdminService } from '../modules/admin/service';
import { hashPassword } from '../modules/auth/passwords';
import { createUsersRepository } from '../modules/users/repository';
import { fail, withCommandDatabase } from './database';

const USAGE = `Usage:
  npm run admin -- create --username <name> --email <email> --password <password>
  npm run admin -- promote <username>
  npm run admin -- demote <username>
  npm run admin -- credit <username> <dollars> --note <why>   (a negative amount debits)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    username: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    note: { type: 'string' },
  },
});
const [command, target] = positionals;
if (!command || !['create', 'promote', 'demote', 'credit'].includes(command)) fail(USAGE);

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
  } else if (command === 'credit') {
    const amount = Number(positionals[2]);
    if (!target || !Number.isFinite(amount) || !values.note) fail(USAGE);
    const user = await users.findByUsername(target);
    if (!user) fail(`No user named ${target}.`);
    // Running servers on the same PostgreSQL hear of it from the ledger's trigger and refresh pages and caches.
    const events = await createUserEventBus(database, pino({ level: 'silent' }));
    const result = await createAdminService(database.db, events).adjustBalance({
      userId: user.id,
      amountCents: Math.round(amount * 100),
      note: values.note,
      adminUsername: 'console',
    });
    await events.close();
    console.log(`${user.username}'s balance is now $${(result.balanceAfterCents / 100).toFixed(2)}.`);
  } else {
    if (!target) fail(USAGE);
    const user = await users.findByUsername(target);
    if (!user) fail(`No user named ${target}.`);
    const role = command === 'promote' ? ADMIN_ROLE : 0;
    await users.setRole(user.id, role);
    console.log(
      `${user.username} is now ${role === ADMIN_ROLE ? 'an administrator' : 'a regular user'}; their old tokens no longer work.`,
    );
  }
});
