// The administrators' surface. Its first onRequest hooks are the guard: the JWT, then the role as
// the database has it now (never a claim of the token), so a demoted or deleted administrator is
// refused from the next request, before any body parsing or validation. Every change is logged
// with the acting administrator's id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { forbidden, MESSAGES, notFound } from '../errors.js';
import { isRecordId } from '../lib/ids.js';
import { AdminUserReply, ListUsersQuery, toAdminUserDto, UpdateUserBody, UserListReply } from '../schemas/admin.js';
import { UserReply } from '../schemas/auth.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { toUserDto } from '../schemas/dto.js';
import { logAccountDeletion } from './account-deletion.js';
import { routeDefaults } from './route-defaults.js';


async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (request.account?.role !== 'admin') throw forbidden(MESSAGES.adminRequired);
}

const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'admin');
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireAdmin);

  // Unknown /admin paths also sit behind the guard.
  app.setNotFoundHandler((request) => {
    throw notFound(`Route ${request.method} ${request.url.split('?', 1)[0]} not found.`);
  });

  app.get(
    '/users',
    {
      schema: {
        summary: 'List accounts, newest first, optionally by email substring (cursor-paginated)',
        querystring: ListUsersQuery,
        response: { 200: UserListReply, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await app.services.admin.listUsers(request.query);
      return { users: page.users.map(toAdminUserDto), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/users/:id',
    {
      schema: {
        summary: 'One account, with what it owns',
        params: IdParams,
        response: { 200: AdminUserReply, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ user: toAdminUserDto(await app.services.admin.getUser(request.params.id)) }),
  );

  app.put(
    '/users/:id',
    {
      schema: {
        summary: "Change an account's plan or role",
        description: 'A plan change applies from the next request. Removing the last administrator is refused (409).',
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: UserReply, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const user = await app.services.admin.updateUser(request.params.id, request.body);
      request.log.info({ adminId: request.userId, userId: user.id, changes: request.body }, 'account changed by an administrator');
      return { user: toUserDto(user) };
    },
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        summary: 'Delete an account with its projects, assets, files and keys',
        description: 'As DELETE /auth/me, without the password. The last administrator cannot be deleted (409).',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted. Empty body.' }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = isRecordId(id) ? await app.services.accounts.deleteAccount(id) : null;
      if (!deleted) throw notFound(MESSAGES.userNotFound);
      logAccountDeletion(request.log, { userId: id, adminId: request.userId }, deleted);
      return reply.code(204).send(null);
    },
  );
};

export default adminRoutes;
