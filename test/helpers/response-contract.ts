// Every answer a test app gives is checked against the OpenAPI document it serves: the status is
// documented for the operation (or is a 5xx, which `default` covers), every header the document
// marks required is present, the media type is a documented one, and a JSON body matches its
// schema. A violation fails the test that caused it (the app.inject wrapper throws) and, for
// answers sent over a real socket, the app's close() (the test's afterAll) — never silently.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { App } from '../../src/app.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
interface HeaderObject {
  required?: boolean;
  $ref?: string;
}
interface ResponseObject {
  $ref?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: Json }>;
}
interface Operation {
  responses: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Json; headers?: Record<string, HeaderObject>; responses?: Record<string, ResponseObject> };
}

/** Compiled checks for one document (documents differ only by servers between test apps). */
class Contract {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: Document) {
    this.ajv = addFormats(new Ajv2020({ strict: false, allErrors: false, validateFormats: true }));
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  }

  validator(key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      // The document's local references point into its components, registered as openapi.json.
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as Json;
      validate = this.ajv.compile(rebased);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** A shared response (components/responses) in place of its reference. */
  response(response: ResponseObject | undefined): ResponseObject | undefined {
    const name = response?.$ref?.replace('#/components/responses/', '');
    return name ? this.doc.components.responses?.[name] : response;
  }

  header(header: HeaderObject): HeaderObject {
    const name = header.$ref?.replace('#/components/headers/', '');
    return name ? (this.doc.components.headers?.[name] ?? header) : header;
  }
}

const contracts = new Map<string, Contract>();

function contractOf(app: App): Contract {
  const doc = app.swagger() as unknown as Document;
  const key = JSON.stringify([doc.paths, doc.components]);
  let contract = contracts.get(key);
  if (!contract) {
    contract = new Contract(doc);
    contracts.set(key, contract);
  }
  return contract;
}

const documentedPath = (url: string) => {
  const path = url.length > 1 ? url.replace(/\/+$/, '') : url;
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
};

const isMeta = (url: string) => url === '/openapi.json' || url === '/docs' || url.startsWith('/docs/');

function bodyText(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

const isEmpty = (payload: unknown) =>
  payload === undefined || payload === null || payload === '' || (Buffer.isBuffer(payload) && payload.length === 0);

const mediaMatches = (documented: string, actual: string) =>
  documented === actual || (documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1)));

/** A body a route sent already compressed (a precompressed one), as the client reads it. */
function decoded(reply: FastifyReply, payload: unknown): unknown {
  const coding = reply.getHeader('content-encoding');
  if (!Buffer.isBuffer(payload)) return payload;
  if (coding === 'br') return brotliDecompressSync(payload);
  return coding === 'gzip' ? gunzipSync(payload) : payload;
}

/** What is wrong with this answer, or undefined when it is what the document says. */
function check(contract: Contract, request: FastifyRequest, reply: FastifyReply, sent: unknown): string | undefined {
  const payload = decoded(reply, sent);
  const url = request.routeOptions.url;
  const status = String(reply.statusCode);
  const method = request.method.toLowerCase();
  const contentType = String(reply.getHeader('content-type') ?? '').split(';')[0]?.trim() ?? '';

  // No route matched: the document promises an ApiError (404, or 400 for an unroutable URL).
  if (url === undefined) {
    if (!/^4\d\d$/.test(status)) return `an unrouted request was answered ${status}, not a 4xx ApiError`;
    const validate = contract.validator('ApiError', { $ref: '#/components/schemas/ApiError' });
    const text = bodyText(payload);
    if (method !== 'head' && (text === undefined || !validate(JSON.parse(text)))) {
      return 'an unrouted request was not answered with an ApiError';
    }
    return undefined;
  }
  if (isMeta(url)) return undefined;

  const path = documentedPath(url);
  // Fastify answers HEAD on every GET route; only a declared HEAD (GET /files/:name) is documented
  // on its own. The others are checked against their GET, without a body.
  const item = contract.doc.paths[path];
  const operation = item?.[method] ?? (method === 'head' ? item?.get : undefined);
  if (!operation) return `${method.toUpperCase()} ${path} is not in the OpenAPI document`;
  const where = `${method.toUpperCase()} ${path} → ${status}`;
  const response = contract.response(operation.responses[status] ?? (/^5\d\d$/.test(status) ? operation.responses.default : undefined));
  if (!response) return `${where}: status ${status} is not documented for this operation`;

  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (contract.header(header).required && reply.getHeader(name) === undefined) return `${where}: required header ${name} is missing`;
  }

  const content = response.content;
  if (!content || method === 'head') {
    // Fastify itself drops the body of a 204 or 304 (the route's Type.Null serializes to "null").
    const bodiless = method === 'head' || status === '204' || status === '304';
    if (!bodiless && !isEmpty(payload)) return `${where}: the document says no body, but one was sent`;
    return undefined;
  }
  const mediaType = Object.keys(content).find((documented) => mediaMatches(documented, contentType));
  if (!mediaType) return `${where}: content-type '${contentType}' is not one of ${Object.keys(content).join(', ')}`;
  const schema = content[mediaType]?.schema;
  if (mediaType !== 'application/json' || !schema) return undefined;
  const text = bodyText(payload);
  if (text === undefined) return undefined; // a stream: not read here
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: the body is not JSON`;
  }
  const validate = contract.validator(`${path} ${method} ${status}`, schema);
  if (!validate(body)) {
    const [error] = validate.errors ?? [];
    return `${where}: body${error?.instancePath ?? ''} ${error?.message ?? 'does not match'} (${JSON.stringify(error?.params ?? {})})`;
  }
  return undefined;
}

export class ResponseContractError extends Error {
  override name = 'ResponseContractError';
}

/**
 * Checks every answer of this app against its document. Call before app.ready(). app.inject
 * rejects with a ResponseContractError when its answer broke the contract; answers sent over a
 * socket (app.listen) make app.close() reject instead.
 */
export function enforceResponseContract(app: App): void {
  const violations = new Map<string, string>();
  let contract: Contract | undefined;

  app.addHook('onSend', async (request, reply, payload) => {
    contract ??= contractOf(app);
    const violation = check(contract, request, reply, payload);
    if (violation) violations.set(request.id, violation);
    return payload;
  });

  const original = app.inject as unknown as (...args: unknown[]) => unknown;
  const inject = (options: unknown) => original.call(app, options) as Promise<{ headers: Record<string, unknown> }>;
  const wrapped = async (options: unknown) => {
    const response = await inject(options);
    const id = response.headers['x-request-id'];
    const violation = typeof id === 'string' ? violations.get(id) : undefined;
    if (violation !== undefined) {
      violations.delete(id as string);
      throw new ResponseContractError(`The answer contradicts the OpenAPI document: ${violation}`);
    }
    return response;
  };
  // Only the promise form (inject(options)) is wrapped; the chain form and callbacks pass through.
  app.inject = ((options?: unknown, callback?: unknown) =>
    options === undefined || callback !== undefined
      ? original.call(app, options, callback)
      : wrapped(options)) as unknown as App['inject'];

  app.addHook('onClose', async () => {
    if (violations.size > 0) {
      throw new ResponseContractError(
        `Answers contradicted the OpenAPI document:\n${[...violations.values()].map((v) => `  - ${v}`).join('\n')}`,
      );
    }
  });
}
