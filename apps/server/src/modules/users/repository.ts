import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type User, users } from '../../db/schema';

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

    async setPasswordHash(id: number, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
