import { ADMIN_ROLE } from '@simcode/contract';
import { hashPassword } from '../../src/modules/auth/passwords';
import { createUsersRepository } from '../../src/modules/users/repository';
import type { TestApp } from './app';

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
  /** Ready-made Authorization header. */
  headers: { authorization: string };
}

let sequence = 0;

/**
 * One argon2 hash per password for the whole worker: a hash costs tens of milliseconds by design, and tests
 * create hundreds of users with the same password (each hash still verifies as argon2 does in production).
 */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

/** Inserts a user straight into the database (no captcha) and signs a token for it. */
export async function createUser(
  { ctx }: TestApp,
  options: { username?: string; password?: string; admin?: boolean } = {},
): Promise<TestUser> {
  sequence += 1;
  const username = options.username ?? `user_${sequence}_${Math.random().toString(36).slice(2, 7)}`;
  const password = options.password ?? 'correct-horse-battery';
  const users = createUsersRepository(ctx.database.db);
  const user = await users.insert({
    username,
    email: `${username.toLowerCase()}@example.test`,
    passwordHash: await hashOnce(password),
    role: options.admin ? ADMIN_ROLE : 0,
  });
  const token = await ctx.auth.issueToken(user);
  return {
    id: user.id,
    username,
    email: user.email,
    password,
    token,
    headers: { authorization: `Bearer ${token}` },
  };
}
