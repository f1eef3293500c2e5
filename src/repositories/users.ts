import type { PrismaClient } from '../generated/prisma/client.js';
import type { Plan } from '../generated/prisma/enums.js';
import { mapUniqueViolation } from './prisma-errors.js';

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

export interface UserWithSecret extends User {
  passwordHash: string;
}

export interface NewUser {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
}

const publicFields = { id: true, email: true, name: true, createdAt: true } as const;

export function createUserRepository(prisma: PrismaClient) {
  return {
    /** Throws UniqueViolationError when the email is taken. */
    create(user: NewUser): Promise<User> {
      return mapUniqueViolation(() => prisma.user.create({ data: user, select: publicFields }));
    },
    findByEmailWithSecret(email: string): Promise<UserWithSecret | null> {
      return prisma.user.findUnique({ where: { email }, select: { ...publicFields, passwordHash: true } });
    },
    findById(id: string): Promise<User | null> {
      return prisma.user.findUnique({ where: { id }, select: publicFields });
    },
    async findPlan(id: string): Promise<Plan | null> {
      const row = await prisma.user.findUnique({ where: { id }, select: { plan: true } });
      return row?.plan ?? null;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
