// The error examples of the OpenAPI document, one table: for each operation (by operationId) and
// status, the exact answer that route gives, which test/openapi/error-examples.test.ts produces
// through the app. The answers every route gives alike (a schema 400, a 401 of each surface, 413,
// 415, 429, 500, 503) are one shared response each (SHARED_RESPONSES). The document's transform
// refuses a route-specific status that has no entry here.
import { BlankTooLargeError } from '../dielines/layout.js';
import { apiError, MESSAGES, type ApiError } from '../errors.js';
import { FONT_COLLECTION_MESSAGE } from '../lib/font-file.js';
import { FRAMEWORK_MESSAGES } from '../plugins/errors.js';
import { capital } from '../plugins/openapi-conventions.js';
import type { SharedErrorResponse } from '../plugins/openapi-transform.js';
import { SvgTooCostlyError } from '../render/svg-filters.js';
import { EXPORT_MESSAGES } from '../services/exports.js';
import { IDEMPOTENCY_MESSAGES } from '../services/idempotency.js';
import { FONT_MESSAGES } from '../services/fonts.js';
import { WEBHOOK_MESSAGES } from '../services/webhooks.js';

/** The template id the examples ask for and no catalog has. */
export const MISSING_TEMPLATE_ID = 'no-such-template';

const projectNotFound = apiError(404, MESSAGES.projectNotFound);
const templateNotFound = apiError(404, MESSAGES.templateNotFound(MISSING_TEMPLATE_ID));
const projectChanged = apiError(412, MESSAGES.projectChanged);
const projectCap = apiError(403, MESSAGES.projectCap);
const versionNotFound = apiError(404, MESSAGES.versionNotFound);
const assetNotFound = apiError(404, MESSAGES.assetNotFound);
const fileNotFound = apiError(404, MESSAGES.fileNotFound);
const exportNotFound = apiError(404, EXPORT_MESSAGES.notFound);
const webhookNotFound = apiError(404, WEBHOOK_MESSAGES.notFound);
const adminRequired = apiError(403, MESSAGES.adminRequired);
const lastAdmin = apiError(409, MESSAGES.lastAdmin);
const svgTooCostly = apiError(422, new SvgTooCostlyError('feTurbulence numOctaves is 10, at most 4 is rendered').message);
const multipartOnly = apiError(415, MESSAGES.unsupportedContentType(['multipart/form-data']));

const project = { 404: projectNotFound };
const projectWrite = { 404: projectNotFound, 412: projectChanged };
const adminUser = { 403: adminRequired, 404: apiError(404, MESSAGES.userNotFound) };

/**
 * operationId → status → the answer. A 400 here is documented beside the shared schema 400. A /v1
 * twin answers as the route it repeats, under that route's operationId.
 */
export const ERROR_EXAMPLES: Readonly<Record<string, Readonly<Record<string, ApiError>>>> = {
  listMetrics: { 404: apiError(404, 'Route GET /metrics not found.') },
  register: { 409: apiError(409, MESSAGES.emailTaken) },
  logIn: { 401: apiError(401, MESSAGES.invalidCredentials) },
  deleteAuthMe: { 403: apiError(403, MESSAGES.passwordIncorrect), 409: lastAdmin },
  updateAuthPassword: { 400: apiError(400, MESSAGES.samePassword), 403: apiError(403, MESSAGES.currentPasswordIncorrect) },
  getTemplate: { 404: templateNotFound },
  getTemplateDieline: { 404: templateNotFound },
  getTemplateModel: { 404: templateNotFound },

  issueApiKey: { 409: apiError(409, MESSAGES.apiKeyLimit) },
  revokeApiKey: { 404: apiError(404, MESSAGES.apiKeyNotFound) },

  createProject: { 400: apiError(400, MESSAGES.unknownTemplateId(MISSING_TEMPLATE_ID)), 403: projectCap },
  getProject: project,
  updateProject: projectWrite,
  deleteProject: projectWrite,
  postProjectDuplicate: { 403: projectCap, 404: projectNotFound },
  listProjectVersions: project,
  getProjectVersion: { 404: versionNotFound },
  postProjectVersionRestore: { 404: versionNotFound, 412: projectChanged },
  getProjectDieline: project,
  getProjectPreflight: project,
  getProjectPrint: { 404: projectNotFound, 409: apiError(409, MESSAGES.printPreflightErrors) },
  getProjectPreview: project,
  getProjectModel: project,
  getProjectMockup: project,
  getProjectLayout: { 404: projectNotFound, 422: apiError(422, new BlankTooLargeError().message) },
  createShare: project,
  listShares: project,
  revokeShare: { 404: apiError(404, MESSAGES.shareNotFound) },
  getSharedModel: { 404: apiError(404, MESSAGES.shareNotFound) },
  uploadAsset: { 413: apiError(413, MESSAGES.fileTooLarge), 415: multipartOnly, 422: svgTooCostly },
  getAsset: { 404: assetNotFound },
  deleteAsset: { 404: assetNotFound },
  uploadFont: { 413: apiError(413, FONT_MESSAGES.tooLarge), 415: multipartOnly, 422: apiError(422, FONT_COLLECTION_MESSAGE) },
  deleteFont: { 404: apiError(404, FONT_MESSAGES.notFound) },
  getFile: { 404: fileNotFound },
  headFile: { 404: fileNotFound },

  listAdminUsers: { 403: adminRequired },
  getAdminUser: adminUser,
  updateAdminUser: { ...adminUser, 409: lastAdmin },
  deleteAdminUser: { ...adminUser, 409: lastAdmin },

  createProjectExport: { 404: projectNotFound, 409: apiError(409, IDEMPOTENCY_MESSAGES.conflict) },
  getExport: { 404: exportNotFound },
  getExportDownload: { 404: exportNotFound, 410: apiError(410, EXPORT_MESSAGES.expired) },
  createWebhook: { 409: apiError(409, WEBHOOK_MESSAGES.limit) },
  deleteWebhook: { 404: webhookNotFound },
  listWebhookDeliveries: { 404: webhookNotFound },
  postWebhookTest: { 404: webhookNotFound },
  postWebhookDeliveryRedeliver: { 404: apiError(404, WEBHOOK_MESSAGES.deliveryNotFound) },
};

/** What the rate limit answers; the example's limit is the default of the sign-in routes. */
export const RATE_LIMIT_EXAMPLE = { max: 10, after: '1 minute' };

/** The answers every route gives alike, by components/responses name, each with its status ('default': unexpected). */
export const SHARED_RESPONSES = {
  BadRequest: {
    status: '400',
    description: 'Bad Request: the request does not match the schema (the message names the field and the rule).',
    examples: { schema: apiError(400, "body must have required property 'name'.") },
  },
  Unauthorized: {
    status: '401',
    description: 'Unauthorized: no bearer token, or one that is invalid, expired or revoked.',
    examples: { missing: apiError(401, MESSAGES.authRequired), invalid: apiError(401, MESSAGES.invalidToken) },
  },
  ApiKeyUnauthorized: {
    status: '401',
    description: 'Unauthorized: no x-api-key header, or a key that is unknown or revoked.',
    examples: { missing: apiError(401, MESSAGES.missingApiKey), invalid: apiError(401, MESSAGES.invalidApiKey) },
  },
  PayloadTooLarge: {
    status: '413',
    description: 'Payload Too Large: the body is larger than 1 MiB.',
    examples: { body: apiError(413, MESSAGES.bodyTooLarge) },
  },
  UnsupportedMediaType: {
    status: '415',
    description: 'Unsupported Media Type: the body is not JSON.',
    examples: { type: apiError(415, MESSAGES.unsupportedContentType(['application/json'])) },
  },
  IdempotencyConflict: {
    status: '409',
    description: 'Conflict: the Idempotency-Key was used with another request.',
    examples: { conflict: apiError(409, IDEMPOTENCY_MESSAGES.conflict) },
  },
  TooManyRequests: {
    status: '429',
    description: 'Too Many Requests: the rate limit is used up; wait Retry-After seconds.',
    examples: { limit: apiError(429, MESSAGES.rateLimited(RATE_LIMIT_EXAMPLE.max, RATE_LIMIT_EXAMPLE.after)) },
  },
  ServiceUnavailable: {
    status: '503',
    description: 'Service Unavailable: the service is shutting down or busy; retry after Retry-After seconds.',
    examples: { closing: apiError(503, FRAMEWORK_MESSAGES.closing) },
  },
  UnexpectedError: {
    status: 'default',
    description: 'Unexpected failure (500), or 503 while the server shuts down.',
    examples: { internal: apiError(500, MESSAGES.internal) },
  },
} as const satisfies Record<string, SharedErrorResponse>;

export const exampleComponentName = (response: string, example: string) => `${response}${capital(example)}`;
