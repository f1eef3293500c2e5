// The error examples of the OpenAPI document, one table: for each operation (by operationId) and
// status, the exact answer that route gives, which test/openapi/error-examples.test.ts produces
// through the app. The answers every route gives alike (a schema 400, a 401 of each surface, 413,
// 415, 429, 500, 503) are one shared response each (SHARED_RESPONSES). The document's transform
// refuses a route-specific status that has no entry here.
import { BlankTooLargeError } from '../dielines/layout.js';
import { apiError, MESSAGES, type ApiError } from '../errors.js';
import { FONT_COLLECTION_MESSAGE } from '../lib/font-file.js';
import { FRAMEWORK_MESSAGES } from '../plugins/errors.js';
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
const fontNotFound = apiError(404, FONT_MESSAGES.notFound);
const fileNotFound = apiError(404, MESSAGES.fileNotFound);
const exportNotFound = apiError(404, EXPORT_MESSAGES.notFound);
const webhookNotFound = apiError(404, WEBHOOK_MESSAGES.notFound);
const adminRequired = apiError(403, MESSAGES.adminRequired);
const lastAdmin = apiError(409, MESSAGES.lastAdmin);
const svgTooCostly = apiError(422, new SvgTooCostlyError('feTurbulence numOctaves is 10, at most 4 is rendered').message);
const fontCollection = apiError(422, FONT_COLLECTION_MESSAGE);
const idempotencyConflict = apiError(409, IDEMPOTENCY_MESSAGES.conflict);
const multipartOnly = apiError(415, MESSAGES.unsupportedContentType(['multipart/form-data']));
const imageTooLarge = apiError(413, MESSAGES.fileTooLarge);
const fontTooLarge = apiError(413, FONT_MESSAGES.tooLarge);
const unknownTemplate = apiError(400, MESSAGES.unknownTemplateId(MISSING_TEMPLATE_ID));

const project = { 404: projectNotFound };
const projectWrite = { 404: projectNotFound, 412: projectChanged };
const adminUser = { 403: adminRequired, 404: apiError(404, MESSAGES.userNotFound) };

/** operationId → status → the answer. A 400 here is documented beside the shared schema 400. */
export const ERROR_EXAMPLES: Readonly<Record<string, Readonly<Record<string, ApiError>>>> = {
  listMetrics: { 404: apiError(404, 'Route GET /metrics not found.') },
  register: { 409: apiError(409, MESSAGES.emailTaken) },
  logIn: { 401: apiError(401, MESSAGES.invalidCredentials) },
  deleteAuthMe: { 403: apiError(403, MESSAGES.passwordIncorrect), 409: lastAdmin },
  updateAuthPassword: { 400: apiError(400, MESSAGES.samePassword), 403: apiError(403, MESSAGES.currentPasswordIncorrect) },
  getTemplate: { 404: templateNotFound },
  getTemplateDieline: { 404: templateNotFound },
  getTemplateModel: { 404: templateNotFound },
  getV1Template: { 404: templateNotFound },
  getV1TemplateDieline: { 404: templateNotFound },
  getV1TemplateModel: { 404: templateNotFound },

  createV1Project: { 400: unknownTemplate, 403: projectCap },
  getV1Project: project,
  updateV1Project: projectWrite,
  deleteV1Project: projectWrite,
  postV1ProjectDuplicate: { 403: projectCap, 404: projectNotFound },
  listV1ProjectVersions: project,
  getV1ProjectVersion: { 404: versionNotFound },
  postV1ProjectVersionRestore: { 404: versionNotFound, 412: projectChanged },
  getV1ProjectDieline: project,
  getV1ProjectPreflight: project,
  createV1ProjectExport: { 404: projectNotFound, 409: idempotencyConflict },
  getV1Export: { 404: exportNotFound },
  v1UploadAsset: { 413: imageTooLarge, 415: multipartOnly, 422: svgTooCostly },
  getV1Asset: { 404: assetNotFound },
  deleteV1Asset: { 404: assetNotFound },
  createV1Webhook: { 409: apiError(409, WEBHOOK_MESSAGES.limit) },
  deleteV1Webhook: { 404: webhookNotFound },
  listV1WebhookDeliveries: { 404: webhookNotFound },
  postV1WebhookTest: { 404: webhookNotFound },
  postV1WebhookDeliveryRedeliver: { 404: apiError(404, WEBHOOK_MESSAGES.deliveryNotFound) },
  v1UploadFont: { 413: fontTooLarge, 415: multipartOnly, 422: fontCollection },
  v1DeleteFont: { 404: fontNotFound },

  issueApiKey: { 409: apiError(409, MESSAGES.apiKeyLimit) },
  revokeApiKey: { 404: apiError(404, MESSAGES.apiKeyNotFound) },

  createProject: { 400: unknownTemplate, 403: projectCap },
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
  uploadAsset: { 413: imageTooLarge, 415: multipartOnly, 422: svgTooCostly },
  getAsset: { 404: assetNotFound },
  deleteAsset: { 404: assetNotFound },
  uploadFont: { 413: fontTooLarge, 415: multipartOnly, 422: fontCollection },
  deleteFont: { 404: fontNotFound },
  getFile: { 404: fileNotFound },
  headFile: { 404: fileNotFound },

  listAdminUsers: { 403: adminRequired },
  getAdminUser: adminUser,
  updateAdminUser: { ...adminUser, 409: lastAdmin },
  deleteAdminUser: { ...adminUser, 409: lastAdmin },

  createProjectExport: { 404: projectNotFound, 409: idempotencyConflict },
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

export interface SharedResponse {
  status: string;
  /** The components/responses name. */
  name: string;
  description: string;
  /** Named examples, each under components/examples as `${name}${Capitalized example name}`. */
  examples: Record<string, ApiError>;
}

/** The answers every route gives alike, by status ('default' for the unexpected failure). */
export const SHARED_RESPONSES = {
  validation: {
    status: '400',
    name: 'BadRequest',
    description: 'Bad Request: the request does not match the schema (the message names the field and the rule).',
    examples: { schema: apiError(400, "body must have required property 'name'.") },
  },
  bearer: {
    status: '401',
    name: 'Unauthorized',
    description: 'Unauthorized: no bearer token, or one that is invalid, expired or revoked.',
    examples: { missing: apiError(401, MESSAGES.authRequired), invalid: apiError(401, MESSAGES.invalidToken) },
  },
  apiKey: {
    status: '401',
    name: 'ApiKeyUnauthorized',
    description: 'Unauthorized: no x-api-key header, or a key that is unknown or revoked.',
    examples: { missing: apiError(401, MESSAGES.missingApiKey), invalid: apiError(401, MESSAGES.invalidApiKey) },
  },
  tooLarge: {
    status: '413',
    name: 'PayloadTooLarge',
    description: 'Payload Too Large: the body is larger than 1 MiB.',
    examples: { body: apiError(413, MESSAGES.bodyTooLarge) },
  },
  mediaType: {
    status: '415',
    name: 'UnsupportedMediaType',
    description: 'Unsupported Media Type: the body is not JSON.',
    examples: { type: apiError(415, MESSAGES.unsupportedContentType(['application/json'])) },
  },
  idempotency: {
    status: '409',
    name: 'IdempotencyConflict',
    description: 'Conflict: the Idempotency-Key was used with another request.',
    examples: { conflict: apiError(409, IDEMPOTENCY_MESSAGES.conflict) },
  },
  rateLimited: {
    status: '429',
    name: 'TooManyRequests',
    description: 'Too Many Requests: the rate limit is used up; wait Retry-After seconds.',
    examples: { limit: apiError(429, MESSAGES.rateLimited(RATE_LIMIT_EXAMPLE.max, RATE_LIMIT_EXAMPLE.after)) },
  },
  unavailable: {
    status: '503',
    name: 'ServiceUnavailable',
    description: 'Service Unavailable: the service is shutting down or busy; retry after Retry-After seconds.',
    examples: { closing: apiError(503, FRAMEWORK_MESSAGES.closing) },
  },
  unexpected: {
    status: 'default',
    name: 'UnexpectedError',
    description: 'Unexpected failure (500), or 503 while the server shuts down.',
    examples: { internal: apiError(500, MESSAGES.internal) },
  },
} as const satisfies Record<string, SharedResponse>;

export const exampleComponentName = (response: SharedResponse, example: string) =>
  `${response.name}${example.charAt(0).toUpperCase()}${example.slice(1)}`;
