// Domain errors carry an HTTP status; the one error plugin (plugins/errors.ts) turns them into
// the ApiError shape. Messages fixed by the interface live here, once.
import { STATUS_CODES } from 'node:http';

/** The one shape of every failure: { statusCode, error, message } and nothing more. */
export interface ApiError {
  statusCode: number;
  error: string;
  message: string;
}

export function apiError(statusCode: number, message: string): ApiError {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent as Retry-After (a 503 without it gets 5). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const preconditionFailed = (message: string) => new HttpError(412, message);

/** Thrown by repositories when a unique constraint rejects a write. */
export class UniqueViolationError extends Error {
  constructor(readonly fields: readonly string[]) {
    super(`Unique constraint violated on ${fields.join(', ') || 'unknown fields'}.`);
    this.name = 'UniqueViolationError';
  }
}

/**
 * Thrown by repositories when a row cannot be written because its owner's account no longer
 * exists (deleted after the request's token was checked): the same 401 as a deleted account's token.
 */
export class OwnerMissingError extends HttpError {
  constructor() {
    super(401, MESSAGES.invalidToken);
    this.name = 'OwnerMissingError';
  }
}

/** Thrown by the database layer when the database cannot be reached. */
export class DatabaseUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Database is unavailable.', options);
    this.name = 'DatabaseUnavailableError';
  }
}

/** Thrown by object storage when the bucket cannot be reached, answers too slowly or fails. */
export class StorageUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Storage is unavailable.', options);
    this.name = 'StorageUnavailableError';
  }
}

export const MESSAGES = {
  mirrorNotFilm: 'mirror applies to sleeves (labelStyle=sleeve), stand-up-pouch and squeeze-tube.',
  internal: 'An unexpected error occurred.',
  imageDeletedWhileRendering: 'An image of the design was deleted while it was being rendered; try again.',
  databaseUnavailable: 'Database is unavailable.',
  storageUnavailable: 'Storage is unavailable.',
  malformedJson: 'Request body is not valid JSON.',
  bodyTooLarge: 'Request body is larger than 1 MiB.',
  /** The 415 for a body of another type (or none declared): names what the route reads. */
  unsupportedContentType: (expected: readonly string[]) =>
    `Unsupported Content-Type for this route: send the body as ${expected.join(' or ')}.`,
  rateLimited: (max: number, after: string) => `Rate limit exceeded: at most ${max} requests per minute. Retry in ${after}.`,
  unknownCategory: (id: string) => `Unknown template category '${id}'.`,
  unknownTemplateId: (id: string) => `Unknown templateId '${id}'.`,
  templateNotFound: (id: string) => `Template '${id}' was not found.`,
  templateHasNoDieline: (id: string) => `Template '${id}' has no dieline.`,
  printPreflightErrors: 'The project has preflight errors; see GET /projects/:id/preflight.',
  printBusy: 'Too many print files, previews and sheet layouts are being made; retry in a few seconds.',
  mockupBusy: 'Too many mockups are being rendered; retry in a few seconds.',
  tooManyExports: 'Too many exports are queued.',
  apiKeyLimit: 'API key limit reached.',
  mockupTimeout: 'The mockup took too long to render; retry in a few seconds.',
  materialNotForTemplate: (material: string, id: string) => `Material '${material}' is not available for template '${id}'.`,
  viewerNotBuilt: 'The viewer is not built: run npm run build.',
  finishNotForTemplate: (finish: string, id: string) => `Finish '${finish}' is not available for template '${id}'.`,
  missingApiKey: 'Missing x-api-key header.',
  invalidApiKey: 'Invalid API key.',
  projectCap: 'The free plan includes up to 3 projects. Upgrade to create more.',
  projectNotFound: 'Project not found.',
  projectChanged: 'The project was changed since you loaded it.',
  versionNotFound: 'Version not found.',
  versionParam: 'params/version must be an integer from 1 to 2147483647 written in plain digits.',
  apiKeyNotFound: 'API key not found.',
  shareNotFound: 'Share link not found.',
  layoutNeedsBox: (id: string) => `Template '${id}' is a container: sheet layouts are for box templates.`,
  noCuttingDie: (id: string) => `Template '${id}' has no cutting die.`,
  fileNotFound: 'File not found.',
  noFileUploaded: 'No file was uploaded.',
  fileTooLarge: 'File is larger than 25 MB (26,214,400 bytes).',
  onlyOneFilePart: 'Only one file part named "file" may be sent.',
  malformedMultipart: 'Multipart body is malformed.',
  declaredTypeNotImage: 'Only images can be uploaded: the file part must be declared with an image/* type.',
  imageTooManyPixels: 'Images larger than 100 megapixels are not supported.',
  imageUnreadable: 'The image could not be decoded: it is truncated or corrupt.',
  assetNotFound: 'Asset not found.',
  contentNotImage: 'The file content is not a supported image (PNG, JPEG, GIF, WebP, AVIF or SVG).',
  emailTaken: 'An account with this email already exists.',
  invalidCredentials: 'Invalid email or password.',
  authRequired: 'Authentication required.',
  invalidToken: 'Invalid or expired token.',
  currentPasswordIncorrect: 'Current password is incorrect.',
  passwordIncorrect: 'Password is incorrect.',
  samePassword: 'newPassword must differ from currentPassword.',
  adminRequired: 'Administrator access required.',
  userNotFound: 'User not found.',
  lastAdmin: 'At least one administrator must remain.',
  invalidCursor: 'cursor is not a cursor this service issued.',
} as const;
