import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { onRequestHookHandler } from 'fastify';
import { toUserDto } from '../schemas/dto.js';
import { AuthReply, LoginBody, MeReply, RegisterBody } from '../schemas/auth.js';
import { EmptyQuery, errorResponses } from '../schemas/common.js';

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const perMinute = app.config.rateLimit.authPerMinute;
  // One budget per client IP shared by login and register.
  const limitByIp: onRequestHookHandler[] =
    perMinute > 0 ? [app.rateLimit({ max: perMinute, timeWindow: 60_000 })] : [];

  app.post(
    '/register',
    {
      onRequest: limitByIp,
      schema: {
        tags: ['auth'],
        summary: 'Create an account and receive a token',
        operationId: 'register',
        querystring: EmptyQuery,
        body: RegisterBody,
        response: { 201: AuthReply, ...errorResponses(400, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const user = await app.services.auth.register(request.body);
      return reply.code(201).send({ user: toUserDto(user), token: app.signToken(user.id) });
    },
  );

  app.post(
    '/login',
    {
      onRequest: limitByIp,
      schema: {
        tags: ['auth'],
        summary: 'Exchange email and password for a token',
        operationId: 'logIn',
        querystring: EmptyQuery,
        body: LoginBody,
        response: { 200: AuthReply, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => {
      const user = await app.services.auth.login(request.body);
      return { user: toUserDto(user), token: app.signToken(user.id) };
    },
  );

  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'The account behind the token',
        operationId: 'getMe',
        security: [{ bearerAuth: [] }],
        querystring: EmptyQuery,
        response: { 200: MeReply, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      if (!request.account) throw new Error('app.authenticate did not set request.account');
      return { user: toUserDto(request.account) };
    },
  );
};

export default authRoutes;
