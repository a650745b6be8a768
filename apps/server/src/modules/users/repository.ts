import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { sessions, type User, users } from '../../db/schema';

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  role?: number;
}

export function createUsersRepository(db: Executor) {
  return {
    async findById(id: number): Promise<User | undefined> {
      const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return user;
    },

    /** Usernames are unique regardless of case, so lookups are too. */
    async findByUsername(username: string): Promise<User | undefined> {
      const [user] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1);
      return user;
    },

    async findByEmail(email: string): Promise<User | undefined> {
      const [user] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(1);
      return user;
    },

    async insert(newUser: NewUser): Promise<User> {
      const [user] = await db.insert(users).values(newUser).returning();
      return user!;
    },

    /**
     * Changing the role also revokes existing tokens (and ends their sessions), so the new role applies
     * everywhere at once.
     */
    async setRole(id: number, role: number): Promise<User | undefined> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .update(users)
          .set({ role, tokenVersion: sql`${users.tokenVersion} + 1` })
          .where(eq(users.id, id))
          .returning();
        await tx
          .update(sessions)
          .set({ revokedAt: sql`now()` })
          .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
        return user;
      });
    },

    async setPasswordHash(id: number, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
