// Accounts in the database. Role changes and deletions take the row locks of every administrator
// (and of the target) in one order, so the last-admin rule holds under concurrency, from any process.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Plan, Role } from '../generated/prisma/enums.js';
import { selectRows, type SqlQueryable } from './driver-sql.js';
import { mapUniqueViolation } from './prisma-errors.js';
import { recordFileDeletions } from './file-deletions.js';

export type { Plan, Role };

export interface User {
  id: string;
  email: string;
  name: string;
  plan: Plan;
  role: Role;
  /** The generation every valid token of this account carries (see plugins/authentication.ts). */
  tokenGeneration: number;
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

export interface UserCounts {
  projects: number;
  assets: number;
  apiKeys: number;
}

export interface UserWithCounts extends User {
  counts: UserCounts;
}

/** Where a listing page starts: after this (createdAt, id) in newest-first order. */
export interface UserPosition {
  createdAt: Date;
  id: string;
}

export type AccountChanges = Partial<Pick<User, 'plan' | 'role'>>;

/** Names one account: by id (the API) or by email (the admin command). */
export type AccountSelector = { id: string } | { email: string };

export type ChangeOutcome = { kind: 'changed'; user: User } | { kind: 'missing' } | { kind: 'last-admin' };

export type DeleteOutcome =
  | { kind: 'deleted'; /** Stored names of the account's asset files, gathered in the deleting transaction. */ fileNames: string[] }
  | { kind: 'missing' }
  | { kind: 'last-admin' };

const publicFields = {
  id: true,
  email: true,
  name: true,
  plan: true,
  role: true,
  tokenGeneration: true,
  createdAt: true,
} as const;

const countFields = { _count: { select: { projects: true, assets: true, apiKeys: true } } } as const;

// A deletion cascades over every project, version, key and asset row of the account.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

interface LockedRow {
  id: string;
  email: string;
  role: Role;
}

/**
 * Locks every administrator's row and the target's, in id order (the one order every such
 * transaction uses, so two never deadlock). Returns the target (null when it does not exist)
 * and how many administrators there are once any concurrent change has committed.
 */
async function lockAdminsAnd(tx: Transaction, target: AccountSelector): Promise<{ target: LockedRow | null; admins: number }> {
  const rows =
    'id' in target
      ? await tx.$queryRaw<LockedRow[]>`
          SELECT "id", "email", "role"::text AS "role" FROM "users"
           WHERE "role" = 'admin' OR "id" = ${target.id} ORDER BY "id" FOR UPDATE`
      : await tx.$queryRaw<LockedRow[]>`
          SELECT "id", "email", "role"::text AS "role" FROM "users"
           WHERE "role" = 'admin' OR "email" = ${target.email} ORDER BY "id" FOR UPDATE`;
  const found = rows.find((row) => ('id' in target ? row.id === target.id : row.email === target.email)) ?? null;
  return { target: found, admins: rows.filter((row) => row.role === 'admin').length };
}

const removesLastAdmin = (target: LockedRow, admins: number, newRole: Role | undefined) =>
  target.role === 'admin' && newRole !== 'admin' && admins <= 1;

/** LIKE's wildcards and its escape character, taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

const withCounts = ({ _count, ...user }: User & { _count: UserCounts }): UserWithCounts => ({ ...user, counts: _count });

type UserRow = Omit<User, 'createdAt'> & { createdAt: string };

/** The account the JWT guard reads on every request: through the driver (see driver-sql.ts). */
async function findPublicById(sql: SqlQueryable, id: string): Promise<User | null> {
  const [row] = await selectRows<UserRow>(
    sql,
    `SELECT "id", "email", "name", "plan"::text AS "plan", "role"::text AS "role", "tokenGeneration", "createdAt"
       FROM "users" WHERE "id" = $1`,
    [id],
  );
  return row ? { ...row, createdAt: new Date(row.createdAt) } : null;
}

export function createUserRepository(prisma: PrismaClient, sql: SqlQueryable) {
  return {
    /** Throws UniqueViolationError when the email is taken. */
    create(user: NewUser): Promise<User> {
      return mapUniqueViolation(() => prisma.user.create({ data: user, select: publicFields }));
    },
    findByEmailWithSecret(email: string): Promise<UserWithSecret | null> {
      return prisma.user.findUnique({ where: { email }, select: { ...publicFields, passwordHash: true } });
    },
    findByIdWithSecret(id: string): Promise<UserWithSecret | null> {
      return prisma.user.findUnique({ where: { id }, select: { ...publicFields, passwordHash: true } });
    },
    findById(id: string): Promise<User | null> {
      return findPublicById(sql, id);
    },
    async findPlan(id: string): Promise<Plan | null> {
      const row = await prisma.user.findUnique({ where: { id }, select: { plan: true } });
      return row?.plan ?? null;
    },

    /**
     * Sets the password hash and moves the token generation, only if the account is still at
     * `generation` (a concurrent change or sign-out already invalidated the caller's token).
     * The new generation, or null when nothing was written.
     */
    async replacePassword(id: string, generation: number, passwordHash: string): Promise<number | null> {
      const rows = await prisma.$queryRaw<Array<{ tokenGeneration: number }>>`
        UPDATE "users" SET "passwordHash" = ${passwordHash}, "tokenGeneration" = "tokenGeneration" + 1
         WHERE "id" = ${id} AND "tokenGeneration" = ${generation} RETURNING "tokenGeneration"`;
      return rows[0]?.tokenGeneration ?? null;
    },

    /** Moves the token generation: every token issued so far stops working. False when the account is gone. */
    async advanceTokenGeneration(id: string): Promise<boolean> {
      const { count } = await prisma.user.updateMany({ where: { id }, data: { tokenGeneration: { increment: 1 } } });
      return count > 0;
    },

    /** Changes plan and/or role; refuses to demote the last administrator. */
    changeAccount(target: AccountSelector, changes: AccountChanges): Promise<ChangeOutcome> {
      return prisma.$transaction(async (tx): Promise<ChangeOutcome> => {
        const locked = await lockAdminsAnd(tx, target);
        if (!locked.target) return { kind: 'missing' };
        if (changes.role !== undefined && removesLastAdmin(locked.target, locked.admins, changes.role)) {
          return { kind: 'last-admin' };
        }
        const user = await tx.user.update({ where: { id: locked.target.id }, data: changes, select: publicFields });
        return { kind: 'changed', user };
      }, TRANSACTION_OPTIONS);
    },

    /**
     * Deletes the account and, by cascade, its projects (and their versions), keys, assets and fonts,
     * in one transaction that records the stored names of its asset files, thumbnails and fonts in the
     * file-deletion outbox. Refuses to delete the last administrator. Removing the files is the
     * caller's job (the file janitor), after this has committed.
     */
    deleteAccount(id: string): Promise<DeleteOutcome> {
      return prisma.$transaction(async (tx): Promise<DeleteOutcome> => {
        const locked = await lockAdminsAnd(tx, { id });
        if (!locked.target) return { kind: 'missing' };
        if (removesLastAdmin(locked.target, locked.admins, undefined)) return { kind: 'last-admin' };
        const assets = await tx.asset.findMany({ where: { userId: id }, select: { name: true, thumbnailName: true } });
        const fileNames = assets.flatMap((asset) => (asset.thumbnailName ? [asset.name, asset.thumbnailName] : [asset.name]));
        const fonts = await tx.font.findMany({ where: { userId: id }, select: { name: true } });
        fileNames.push(...fonts.map((font) => font.name));
        const exportFiles = await tx.export.findMany({ where: { userId: id, fileName: { not: null } }, select: { fileName: true } });
        fileNames.push(...exportFiles.flatMap((row) => (row.fileName ? [row.fileName] : [])));
        await recordFileDeletions(tx, fileNames);
        await tx.user.delete({ where: { id } });
        return { kind: 'deleted', fileNames };
      }, TRANSACTION_OPTIONS);
    },

    /**
     * One page of accounts, newest first, strictly after `after`; `emailContains` is matched as
     * a literal substring. Fetches one more than `limit` so the caller knows whether more follow.
     */
    async listPage(options: { emailContains: string | null; after: UserPosition | null; limit: number }): Promise<UserWithCounts[]> {
      const { emailContains, after, limit } = options;
      const rows = await prisma.user.findMany({
        where: {
          AND: [
            emailContains === null ? {} : { email: { contains: likeLiteral(emailContains) } },
            after === null
              ? {}
              : { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] },
          ],
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit + 1,
        select: { ...publicFields, ...countFields },
      });
      return rows.map(withCounts);
    },

    async findWithCounts(id: string): Promise<UserWithCounts | null> {
      const row = await prisma.user.findUnique({ where: { id }, select: { ...publicFields, ...countFields } });
      return row ? withCounts(row) : null;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
