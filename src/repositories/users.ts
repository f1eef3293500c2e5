// Accounts in the database, through the Prisma client; in SQL (driver-sql.ts) the guard's read and
// the role changes and deletions, which take the row locks of every administrator (and of the
// target) in one order, so the last-admin rule holds under concurrency, from any process.
import { OwnerMissingError } from '../errors.js';
import type { PrismaClient, User as Account } from '../generated/prisma/client.js';
import type { Plan, Role } from '../generated/prisma/enums.js';
import { keysetPage, type ListPosition } from '../lib/cursors.js';
import { execute, inTransaction, selectRows, type SqlDriverAdapter, type SqlQueryable } from './driver-sql.js';
import { deleteRecordingFiles } from './file-deletions.js';
import { mapUniqueViolation } from './prisma-errors.js';

export type { Plan, Role };

/** An account as every layer but sign-in sees it: without its password hash. */
export type User = Omit<Account, 'passwordHash'>;
export type NewUser = Pick<Account, 'id' | 'email' | 'name' | 'passwordHash'>;

export type UserCounts = Record<'projects' | 'assets' | 'apiKeys', number>;
export type UserWithCounts = User & { counts: UserCounts };

export type AccountChanges = Partial<Pick<User, 'plan' | 'role'>>;

/** Names one account: by id (the API) or by email (the admin command). */
export type AccountSelector = { id: string } | { email: string };

export type ChangeOutcome = { kind: 'changed'; user: User } | { kind: 'missing' } | { kind: 'last-admin' };

export type DeleteOutcome =
  | { kind: 'deleted'; /** Stored names of the account's asset files, gathered in the deleting transaction. */ fileNames: string[] }
  | { kind: 'missing' }
  | { kind: 'last-admin' };

/** The column an account read leaves out unless it checks a password. */
const secret = { passwordHash: true } as const;
const countFields = { _count: { select: { projects: true, assets: true, apiKeys: true } } } as const;

type LockedRow = Pick<Account, 'id' | 'email' | 'role'>;

/**
 * Locks every administrator's row and the target's, in id order (the one order every such
 * transaction uses, so two never deadlock). Returns the target (null when it does not exist)
 * and how many administrators there are once any concurrent change has committed.
 */
async function lockAdminsAnd(tx: SqlQueryable, target: AccountSelector): Promise<{ target: LockedRow | null; admins: number }> {
  const [column, value] = 'id' in target ? (['id', target.id] as const) : (['email', target.email] as const);
  const rows = await selectRows<LockedRow>(
    tx,
    `SELECT "id", "email", "role"::text AS "role" FROM "users" WHERE "role" = 'admin' OR "${column}" = $1 ORDER BY "id" FOR UPDATE`,
    [value],
  );
  const found = rows.find((row) => row[column] === value) ?? null;
  return { target: found, admins: rows.filter((row) => row.role === 'admin').length };
}

/**
 * Locks the account's row until the transaction ends (the turn an account's capped inserts take)
 * and returns its plan; OwnerMissingError when the account was deleted after its caller's check.
 */
export async function lockAccount(tx: SqlQueryable, id: string): Promise<Plan> {
  const [row] = await selectRows<{ plan: Plan }>(tx, `SELECT "plan"::text AS "plan" FROM "users" WHERE "id" = $1 FOR UPDATE`, [id]);
  if (!row) throw new OwnerMissingError();
  return row.plan;
}

const removesLastAdmin = (target: LockedRow, admins: number, newRole: Role | undefined) =>
  target.role === 'admin' && newRole !== 'admin' && admins <= 1;

/** LIKE's wildcards and its escape character, taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

const withCounts = ({ _count, ...user }: User & { _count: UserCounts }): UserWithCounts => ({ ...user, counts: _count });

/** The rows of an account that name stored files, and the columns that name them. */
const FILE_COLUMNS: Array<[string, string[]]> = [
  ['assets', ['name', 'thumbnailName']],
  ['fonts', ['name']],
  ['exports', ['fileName']],
];

export type UserRow = Omit<User, 'createdAt'> & { createdAt: string };
export const toUser = (row: UserRow): User => ({ ...row, createdAt: new Date(row.createdAt) });
export const USER_COLUMNS = `"id", "email", "name", "plan"::text AS "plan", "role"::text AS "role", "tokenGeneration", "createdAt"`;

export function createUserRepository(prisma: PrismaClient, sql: SqlDriverAdapter) {
  return {
    /** Throws UniqueViolationError when the email is taken. */
    create(user: NewUser): Promise<User> {
      return mapUniqueViolation(() => prisma.user.create({ data: user, omit: secret }));
    },
    findWithSecret(where: AccountSelector): Promise<Account | null> {
      return prisma.user.findUnique({ where });
    },
    /**
     * The account every authenticated request reads, through the driver: the client's findUnique
     * here cost GET /projects about 400 µs more CPU per request (measured in-process, 50 at a time).
     */
    async findById(id: string): Promise<User | null> {
      const [row] = await selectRows<UserRow>(sql, `SELECT ${USER_COLUMNS} FROM "users" WHERE "id" = $1`, [id]);
      return row ? toUser(row) : null;
    },

    /**
     * Sets the password hash and moves the token generation, only if the account is still at
     * `generation` (a concurrent change or sign-out already invalidated the caller's token).
     * The new generation, or null when nothing was written.
     */
    async replacePassword(id: string, generation: number, passwordHash: string): Promise<number | null> {
      const { count } = await prisma.user.updateMany({
        where: { id, tokenGeneration: generation },
        data: { passwordHash, tokenGeneration: { increment: 1 } },
      });
      return count === 1 ? generation + 1 : null;
    },

    /** Moves the token generation: every token issued so far stops working. False when the account is gone. */
    async advanceTokenGeneration(id: string): Promise<boolean> {
      const { count } = await prisma.user.updateMany({ where: { id }, data: { tokenGeneration: { increment: 1 } } });
      return count > 0;
    },

    /** Changes plan and/or role; refuses to demote the last administrator. */
    changeAccount(target: AccountSelector, changes: AccountChanges): Promise<ChangeOutcome> {
      return inTransaction(sql, async (tx): Promise<ChangeOutcome> => {
        const locked = await lockAdminsAnd(tx, target);
        if (!locked.target) return { kind: 'missing' };
        if (changes.role !== undefined && removesLastAdmin(locked.target, locked.admins, changes.role)) {
          return { kind: 'last-admin' };
        }
        const [row] = await selectRows<UserRow>(
          tx,
          `UPDATE "users" SET "plan" = COALESCE($2::"Plan", "plan"), "role" = COALESCE($3::"Role", "role") WHERE "id" = $1
           RETURNING ${USER_COLUMNS}`,
          [locked.target.id, changes.plan ?? null, changes.role ?? null],
        );
        return { kind: 'changed', user: toUser(row!) };
      });
    },

    /**
     * Deletes the account and, by cascade, its projects (and their versions), keys, assets and fonts,
     * in one transaction that records the stored names of its asset files, thumbnails and fonts in the
     * file-deletion outbox. Refuses to delete the last administrator. Removing the files is the
     * caller's job (the file janitor), after this has committed.
     */
    deleteAccount(id: string): Promise<DeleteOutcome> {
      return inTransaction(sql, async (tx): Promise<DeleteOutcome> => {
        const locked = await lockAdminsAnd(tx, { id });
        if (!locked.target) return { kind: 'missing' };
        if (removesLastAdmin(locked.target, locked.admins, undefined)) return { kind: 'last-admin' };
        const fileNames: string[] = [];
        for (const [table, columns] of FILE_COLUMNS) {
          fileNames.push(...(await deleteRecordingFiles(tx, table, columns, `"userId" = $1`, [id])));
        }
        await execute(tx, `DELETE FROM "users" WHERE "id" = $1`, [id]);
        return { kind: 'deleted', fileNames };
      });
    },

    /**
     * One page of accounts, newest first, strictly after `after`; `emailContains` is matched as
     * a literal substring. Fetches one more than `limit` so the caller knows whether more follow.
     */
    async listPage(options: { emailContains: string | null; after: ListPosition | null; limit: number }): Promise<UserWithCounts[]> {
      const { emailContains, after, limit } = options;
      const { where, orderBy } = keysetPage(after);
      const rows = await prisma.user.findMany({
        where: { ...(emailContains === null ? {} : { email: { contains: likeLiteral(emailContains) } }), ...where },
        orderBy,
        take: limit + 1,
        omit: secret,
        include: countFields,
      });
      return rows.map(withCounts);
    },

    async findWithCounts(id: string): Promise<UserWithCounts | null> {
      const row = await prisma.user.findUnique({ where: { id }, omit: secret, include: countFields });
      return row ? withCounts(row) : null;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
