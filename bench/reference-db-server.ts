// The bare reference for the database routes: node:http and pg, no framework, no ORM, doing the
// work the service does for GET /projects and for create → update → delete, on the same database
// and tables, with the same pool size:
//   every request   the HS256 check of the bearer token (signature, expiry, subject, generation)
//                   and the account lookup (a token of a deleted or signed-out account is a 401);
//   GET /projects   the owner's projects, newest first, as the service's JSON;
//   POST /projects  BEGIN, lock the owner's row, count, insert, COMMIT (the free plan's cap of 3);
//   PUT /projects/:id     one statement: record the replaced state as a version, write the change;
//   DELETE /projects/:id  one plain DELETE (versions go by cascade).
// Every parameterised statement is a named prepared statement (parsed and planned once per
// connection), as the service's hot statements are; REFERENCE_UNNAMED=1 sends them unnamed.
// Usage: tsx bench/reference-db-server.ts <port> <database url> <jwt secret> <pool size>
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';

const [, , portArg = '0', databaseUrl, jwtSecret = '', poolSizeArg = '10'] = process.argv;
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolSizeArg) });
const FREE_PLAN_PROJECTS = 3;
const JSON_TYPE = 'application/json; charset=utf-8';

const unnamed = process.env.REFERENCE_UNNAMED === '1';
const statementNames = new Map<string, string>();
/** pg's query config for a statement, named after its text unless REFERENCE_UNNAMED=1. */
function statement(text: string, values: unknown[]): pg.QueryConfig {
  if (unnamed) return { text, values };
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `ref_${statementNames.size}`));
  return { name, text, values };
}

const COLUMNS = `"id", "userId", "name", "templateId", "widthMm", ` +
  `"heightMm", "depthMm", "artworkJson", "createdAt", "updatedAt", "version"`;

interface ProjectRow {
  id: string;
  userId: string;
  name: string;
  templateId: string;
  widthMm: number;
  heightMm: number;
  depthMm: number;
  artworkJson: unknown;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

const toJson = ({ version: _version, ...row }: ProjectRow) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

function send(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  if (body === undefined) {
    response.writeHead(status, headers);
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

const error = (response: ServerResponse, status: number, name: string, message: string) =>
  send(response, status, { statusCode: status, error: name, message });

const key = Buffer.from(jwtSecret);
/** The token's subject and generation when its HS256 signature and expiry hold, else null. */
function verifyToken(header: string | undefined): { sub: string; gen: number } | null {
  const match = header && /^Bearer ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(header);
  if (!match) return null;
  const [, head, payload, signature] = match as unknown as [string, string, string, string];
  const expected = createHmac('sha256', key).update(`${head}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const headerJson = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: unknown };
  if (headerJson.alg !== 'HS256') return null;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub?: unknown; gen?: unknown; exp?: unknown };
  if (typeof claims.sub !== 'string' || (typeof claims.exp === 'number' && claims.exp * 1000 < Date.now())) return null;
  return { sub: claims.sub, gen: typeof claims.gen === 'number' ? claims.gen : 0 };
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined);
      } catch (cause) {
        reject(cause);
      }
    });
    request.on('error', reject);
  });
}

const newId = () => `r${randomBytes(12).toString('hex')}`;

async function handle(request: IncomingMessage, response: ServerResponse) {
  const claims = verifyToken(request.headers.authorization);
  if (!claims) return error(response, 401, 'Unauthorized', 'Invalid or expired token.');
  const account = await pool.query<{ tokenGeneration: number }>(
    statement('SELECT "tokenGeneration" FROM "users" WHERE "id" = $1', [claims.sub]),
  );
  if (account.rows[0]?.tokenGeneration !== claims.gen) return error(response, 401, 'Unauthorized', 'Invalid or expired token.');
  const userId = claims.sub;
  const url = request.url ?? '/';
  const projectId = /^\/projects\/([a-z0-9]{1,64})$/.exec(url)?.[1];

  if (url === '/projects' && request.method === 'GET') {
    const { rows } = await pool.query<ProjectRow>(
      statement(`SELECT ${COLUMNS} FROM "projects" WHERE "userId" = $1 ORDER BY "updatedAt" DESC, "id" DESC`, [userId]),
    );
    return send(response, 200, { projects: rows.map(toJson), total: rows.length });
  }

  if (url === '/projects' && request.method === 'POST') {
    const body = (await readBody(request)) as { name: string; templateId: string; widthMm?: number };
    const dimensions = { widthMm: body.widthMm ?? 300, heightMm: 100, depthMm: 200 };
    const artworkJson = {
      templateId: body.templateId,
      dimensions,
      material: 'kraft',
      thicknessMm: 3,
      finish: 'matte',
      background: { kind: 'color', value: '#ffffff' },
      lighting: 'studio',
      artworks: [],
    };
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const owner = await client.query<{ plan: string }>(
        statement('SELECT "plan"::text AS "plan" FROM "users" WHERE "id" = $1 FOR UPDATE', [userId]),
      );
      const count = await client.query<{ count: string }>(statement('SELECT count(*) FROM "projects" WHERE "userId" = $1', [userId]));
      if (owner.rows[0]?.plan === 'free' && Number(count.rows[0]!.count) >= FREE_PLAN_PROJECTS) {
        await client.query('ROLLBACK');
        return error(response, 403, 'Forbidden', 'Project limit reached.');
      }
      const { rows } = await client.query<ProjectRow>(
        statement(
          `INSERT INTO "projects" ("id", "userId", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
          [
            newId(),
            userId,
            body.name.trim(),
            body.templateId,
            dimensions.widthMm,
            dimensions.heightMm,
            dimensions.depthMm,
            JSON.stringify(artworkJson),
          ],
        ),
      );
      await client.query('COMMIT');
      return send(response, 201, { project: toJson(rows[0]!) }, { etag: `"${rows[0]!.version}"` });
    } catch (cause) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw cause;
    } finally {
      client.release();
    }
  }

  if (projectId && request.method === 'PUT') {
    const body = (await readBody(request)) as { name?: string; heightMm?: number };
    const { rows } = await pool.query<ProjectRow>(
      statement(
        `WITH "recorded" AS (
           INSERT INTO "project_versions"
                  ("projectId", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "createdAt")
           SELECT "id", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "updatedAt"
             FROM "projects" WHERE "id" = $1 AND "userId" = $2
         )
         UPDATE "projects" SET "name" = COALESCE($3, "name"), "heightMm" = COALESCE($4, "heightMm"),
                "version" = "version" + 1, "updatedAt" = now()
          WHERE "id" = $1 AND "userId" = $2 RETURNING ${COLUMNS}`,
        [projectId, userId, body.name?.trim() ?? null, body.heightMm ?? null],
      ),
    );
    if (!rows[0]) return error(response, 404, 'Not Found', 'Project not found.');
    return send(response, 200, { project: toJson(rows[0]) }, { etag: `"${rows[0].version}"` });
  }

  if (projectId && request.method === 'DELETE') {
    const { rowCount } = await pool.query(statement('DELETE FROM "projects" WHERE "id" = $1 AND "userId" = $2', [projectId, userId]));
    return rowCount ? send(response, 204) : error(response, 404, 'Not Found', 'Project not found.');
  }

  return error(response, 404, 'Not Found', 'Route not found.');
}

const server = createServer((request, response) => {
  handle(request, response).catch(() => {
    if (!response.headersSent) error(response, 500, 'Internal Server Error', 'Internal server error.');
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(portArg), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
