import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { User } from '../repositories/users.js';
import { toUserDto } from '../schemas/dto.js';
import {
  AuthReply,
  ChangePasswordBody,
  DeleteAccountBody,
  LoginBody,
  UserReply,
  RegisterBody,
  TokenReply,
} from '../schemas/auth.js';
import { errorResponses, NoBody } from '../schemas/common.js';

const SignOutQuery = Type.Object(
  { apiKeys: Type.Optional(Type.Boolean({ default: false, description: 'Also revoke every API key of the account.' })) },
  { additionalProperties: false },
);
import { logAccountDeletion } from './account-deletion.js';
import { routeDefaults } from './route-defaults.js';

function signedInAccount(request: FastifyRequest): User {
  if (!request.account) throw new Error('app.authenticate did not set request.account');
  return request.account;
}

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'auth');
  const perMinute = app.config.rateLimit.authPerMinute;
  // One budget per client IP shared by login and register.
  const limitByIp: onRequestHookHandler[] =
    perMinute > 0 ? [app.rateLimit({ max: perMinute, timeWindow: 60_000 })] : [];
  // One budget per account shared by password change and account deletion (both check a
  // password), counted after the token is verified.
  const accountPerMinute = app.config.rateLimit.accountPerMinute;
  const authenticateAndLimitByAccount: onRequestHookHandler[] = [
    app.authenticate,
    ...(accountPerMinute > 0
      ? [app.rateLimit({ max: accountPerMinute, timeWindow: 60_000, keyGenerator: (request) => `account:${request.userId}` })]
      : []),
  ];

  app.post(
    '/register',
    {
      onRequest: limitByIp,
      schema: {
        summary: 'Create an account and receive a token',
        operationId: 'register',
        body: RegisterBody,
        response: { 201: AuthReply, ...errorResponses(400, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const user = await app.services.auth.register(request.body);
      return reply.code(201).send({ user: toUserDto(user), token: app.signToken(user) });
    },
  );

  app.post(
    '/login',
    {
      onRequest: limitByIp,
      schema: {
        summary: 'Exchange email and password for a token',
        operationId: 'logIn',
        body: LoginBody,
        response: { 200: AuthReply, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => {
      const user = await app.services.auth.login(request.body);
      return { user: toUserDto(user), token: app.signToken(user) };
    },
  );

  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'The account behind the token',
        operationId: 'getMe',
        response: { 200: UserReply, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ user: toUserDto(signedInAccount(request)) }),
  );

  app.put(
    '/password',
    {
      onRequest: authenticateAndLimitByAccount,
      schema: {
        summary: 'Change the password; every token issued before stops working, a new one is returned',
        body: ChangePasswordBody,
        response: { 200: TokenReply, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request) => {
      const account = signedInAccount(request);
      const tokenGeneration = await app.services.accounts.changePassword(account, request.body);
      return { token: app.signToken({ id: account.id, tokenGeneration }) };
    },
  );

  app.delete(
    '/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Sign out everywhere: every token issued so far stops working',
        description: 'The account\'s API keys keep working unless `apiKeys=true`, which revokes them too.',
        querystring: SignOutQuery,
        body: NoBody,
        response: { 204: Type.Null({ description: 'Signed out. Empty body.' }), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const account = signedInAccount(request);
      await app.services.accounts.endSessions(account);
      if (request.query.apiKeys) await app.services.apiKeys.revokeAll(account.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/me',
    {
      onRequest: authenticateAndLimitByAccount,
      schema: {
        summary: 'Delete the account with its projects, assets, files and keys',
        description: 'Its keys fail on every server from the next request. The last administrator cannot be deleted (409).',
        body: DeleteAccountBody,
        response: { 204: Type.Null({ description: 'Deleted. Empty body.' }), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const account = signedInAccount(request);
      const deleted = await app.services.accounts.deleteOwnAccount(account, request.body.password);
      logAccountDeletion(request.log, { userId: account.id }, deleted);
      return reply.code(204).send(null);
    },
  );
};

export default authRoutes;
