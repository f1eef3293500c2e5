// Helpers shared by the /projects tests: requests as a client sends them, and accounts.
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const PROJECT_CAP_MESSAGE = 'The free plan includes up to 3 projects. Upgrade to create more.';
export const NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Project not found.' };

export interface ProjectBody {
  id: string;
  userId: string;
  name: string;
  templateId: string;
  widthMm: number;
  heightMm: number;
  depthMm: number;
  artworkJson: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A full EditorState whose keys are deliberately not in schema order, at every depth. */
export function fullEditorState() {
  return {
    lighting: 'dramatic',
    artworks: [
      {
        scale: 1.25,
        rotationDeg: -12.5,
        imageUrl: 'https://cdn.example.com/a.png',
        panelId: 'front',
        id: 'art-1',
        offsetY: 4,
        offsetX: -3.5,
      },
      { id: 'art-2', panelId: 'lid', imageUrl: '/files/abc.png', offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 90 },
    ],
    background: { value: 'linear-gradient(#fff, #000)', kind: 'gradient' },
    finish: 'soft-touch',
    thicknessMm: 0.4,
    material: 'kraft',
    dimensions: { depthMm: 123.5, widthMm: 456, heightMm: 78.25 },
    templateId: 'mailer-box',
  };
}

export function projectsApi(app: App) {
  return {
    create: (account: TestAccount, payload: unknown) =>
      app.inject({ method: 'POST', url: '/projects', headers: account.auth, payload: payload as object }),
    list: (account: TestAccount) => app.inject({ method: 'GET', url: '/projects', headers: account.auth }),
    get: (account: TestAccount, id: string) => app.inject({ method: 'GET', url: `/projects/${id}`, headers: account.auth }),
    update: (account: TestAccount, id: string, payload: unknown) =>
      app.inject({ method: 'PUT', url: `/projects/${id}`, headers: account.auth, payload: payload as object }),
    remove: (account: TestAccount, id: string) =>
      app.inject({ method: 'DELETE', url: `/projects/${id}`, headers: account.auth }),
    /** Sends raw JSON text (numbers JSON.stringify cannot write, bodies that are not objects). */
    raw: (account: TestAccount, method: 'POST' | 'PUT', url: string, body: string) =>
      app.inject({ method, url, headers: { ...account.auth, 'content-type': 'application/json' }, payload: body }),

    /** Creates a project and returns it; fails the test unless the answer is 201. */
    async created(account: TestAccount, payload: object): Promise<ProjectBody> {
      const response = await this.create(account, payload);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ project: ProjectBody }>().project;
    },
  };
}

/** An account on the pro plan (no project cap), for tests that create many projects. */
export async function registerProAccount(app: App): Promise<TestAccount> {
  const account = await registerAccount(app);
  await app.db.prisma.user.update({ where: { id: account.id }, data: { plan: 'pro' } });
  return account;
}

/** A suite's usual start: a test app, its /projects client and a pro account (no cap). */
export async function startProjectsSuite() {
  const app = await createTestApp();
  return { app, api: projectsApi(app), account: await registerProAccount(app) };
}

export function expectApiError(
  response: { statusCode: number; json: <T>() => T },
  statusCode: number,
  message?: string | RegExp,
) {
  expect(response.statusCode).toBe(statusCode);
  const body = response.json<Record<string, unknown>>();
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(statusCode);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}
