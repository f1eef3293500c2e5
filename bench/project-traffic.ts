// The project workloads' traffic: the create → update → delete cycle and an editor's autosave.
import { register, type Account } from './clients.js';
import { CONNECTIONS, type LoadOptions } from './load.js';
import { json } from './support.js';

interface CycleContext {
  id?: string;
}

/** create → update → delete a project, over and over, one free-plan account per connection. */
export function cycleOptions(url: string, accounts: Account[]): LoadOptions {
  let next = 0;
  return {
    url,
    connections: CONNECTIONS,
    setupClient: (client) => client.setHeaders({ ...accounts[next++ % accounts.length]!.auth, 'content-type': 'application/json' }),
    requests: [
      {
        method: 'POST',
        path: '/projects',
        body: JSON.stringify({ name: 'Cycle', templateId: 'rsc-box', widthMm: 300 }),
        onResponse: (_status, body, context) => {
          (context as CycleContext).id = (JSON.parse(body) as { project: { id: string } }).project.id;
        },
      },
      {
        method: 'PUT',
        setupRequest: (request, context) => ({
          ...request,
          path: `/projects/${(context as CycleContext).id}`,
          body: JSON.stringify({ name: 'Cycle 2', heightMm: 120 }),
        }),
      },
      {
        method: 'DELETE',
        setupRequest: (request, context) => ({ ...request, path: `/projects/${(context as CycleContext).id}`, body: undefined }),
      },
    ],
  };
}

/** Deletes what an interrupted cycle left behind (a round can end between its create and delete). */
export async function deleteLeftovers(serviceUrl: string, accounts: Account[]): Promise<void> {
  await Promise.all(
    accounts.map(async (account) => {
      const { projects } = await json<{ projects: Array<{ id: string; name: string }> }>(
        await fetch(`${serviceUrl}/projects`, { headers: account.auth }),
      );
      for (const project of projects.filter((candidate) => candidate.name.startsWith('Cycle'))) {
        await fetch(`${serviceUrl}/projects/${project.id}`, { method: 'DELETE', headers: account.auth });
      }
    }),
  );
}

/** An editor's autosave: a full EditorState with 12 placed artworks, in two alternating variants. */
function autosaveBodies(): [string, string] {
  const artworks = Array.from({ length: 12 }, (_, index) => ({
    id: `art-${index}`,
    panelId: index % 2 ? 'front' : 'back',
    imageUrl: `/files/bench-${index}.png`,
    offsetX: index * 1.5,
    offsetY: -index,
    scale: 0.5 + index / 24,
    rotationDeg: (index * 15) % 360,
  }));
  const state = (lighting: string) => ({
    templateId: 'mailer-box',
    dimensions: { widthMm: 320, heightMm: 90, depthMm: 240 },
    material: 'kraft',
    thicknessMm: 3,
    finish: 'matte',
    background: { kind: 'color', value: '#f4efe6' },
    lighting,
    artworks,
  });
  return [JSON.stringify({ artworkJson: state('studio') }), JSON.stringify({ artworkJson: state('softbox') })];
}

/**
 * PUTs that change the project every time (the two autosave variants in turn), each connection on
 * its own account's project, so the figure is the write path and not a queue on one row lock.
 */
export async function autosaveOptions(serviceUrl: string, accounts: Account[]): Promise<LoadOptions> {
  const projectIds = await Promise.all(
    accounts.map(async (account) => {
      const created = await json<{ project: { id: string } }>(
        await fetch(`${serviceUrl}/projects`, {
          method: 'POST',
          headers: { ...account.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Autosave', templateId: 'mailer-box' }),
        }),
      );
      return created.project.id;
    }),
  );
  const bodies = autosaveBodies();
  let next = 0;
  return {
    url: serviceUrl,
    connections: CONNECTIONS,
    setupClient: (client) => {
      const index = next++ % accounts.length;
      const headers = { ...accounts[index]!.auth, 'content-type': 'application/json' };
      const path = `/projects/${projectIds[index]}`;
      client.setRequests(bodies.map((body) => ({ method: 'PUT', path, headers, body })));
    },
  };
}

/** One account per connection, labelled from `offset` on. */
export const registerAccounts = (serviceUrl: string, offset: number) =>
  Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => register(serviceUrl, offset + i)));
