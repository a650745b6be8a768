import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with its default memory and time costs. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, verified against when the username is unknown, so that a wrong
 * username costs the same time as a wrong password and the answer time does not reveal which it was.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash(`dummy-${Math.random()}`);
  return dummyHash;
}
