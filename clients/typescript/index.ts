// A typed client for the Packaging Template and Project Service: openapi-fetch over the types
// openapi-typescript generated from the service's OpenAPI document (schema.d.ts). Every path,
// parameter, body and answer is checked by the compiler; see README.md next to this file.
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';
export type ApiError = components['schemas']['ApiError'];
/** The events a webhook receives (webhook.test only on request). */
export type WebhookEventType = keyof webhooks;
/** The verified JSON body of one event: `const event = new Webhook(secret).verify(body, headers) as WebhookPayload`. */
export type WebhookPayload<E extends WebhookEventType = WebhookEventType> = E extends WebhookEventType
  ? NonNullable<webhooks[E]['post']>['requestBody']['content']['application/json']
  : never;

export interface Credentials {
  /** A JWT from register or logIn: sent as Authorization: Bearer <token>. */
  token?: string;
  /** A developer key (pf_…): sent as x-api-key, for the /v1 routes. */
  apiKey?: string;
}

/**
 * A client for one base address (e.g. http://127.0.0.1:3000, or https://host/api behind the
 * proxy) and, optionally, one set of credentials.
 */
export function createPackagingClient(baseUrl: string, credentials: Credentials = {}, options: ClientOptions = {}) {
  const headers: Record<string, string> = {};
  if (credentials.token) headers.authorization = `Bearer ${credentials.token}`;
  if (credentials.apiKey) headers['x-api-key'] = credentials.apiKey;
  return createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, ''), headers: { ...headers, ...(options.headers as object) } });
}

export type PackagingClient = ReturnType<typeof createPackagingClient>;

/**
 * bodySerializer for uploadAsset: `client.POST('/assets', { body: { file }, bodySerializer: asFormData('label.png') })`.
 * fetch then sets multipart/form-data with its boundary itself.
 */
export const asFormData =
  (filename: string) =>
  (body: { file: Blob }): FormData => {
    const form = new FormData();
    form.append('file', body.file, filename);
    return form;
  };
