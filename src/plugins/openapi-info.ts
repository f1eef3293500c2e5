// The OpenAPI document's fixed parts: its tags, its introduction and its security schemes.
/** Each tag's description, in the order the document lists the tags. */
const TAG_DESCRIPTIONS = {
  docs: 'Where a person lands: GET / leads to the API documentation.',
  health: 'Liveness and readiness probes for orchestrators and load balancers.',
  auth: 'Accounts: register, log in, read the account behind a JWT, change the password, sign out everywhere, delete it.',
  templates: 'The catalog of parametric packaging templates: public at /templates, key-gated at /v1/templates.',
  projects: "Editor documents owned by the caller's account (free plan: up to 3).",
  assets: "Image uploads owned by the caller's account (25 MB, image/* only).",
  fonts: "The caller's fonts (TrueType, OpenType, WOFF2; 20 MB), which outline SVG text; the bytes are never served.",
  files: 'Stored uploads, served publicly under their unguessable name.',
  'api-keys': 'Developer keys that unlock the public /v1 surface.',
  admin: "Account management for administrators (a JWT whose account's role is admin).",
  viewer: 'The 3D viewer page (three.js bundled at build time) for the model routes.',
  exports: 'Print files, previews, models and dielines rendered as jobs: request, poll, download (24 h).',
  webhooks: 'Signed (Standard Webhooks) notifications of export outcomes and project changes; the payloads are under webhooks.',
  shares: "Read-only links to a project's 3D model for people without an account.",
};
export const TAGS = Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({ name, description }));

export const DESCRIPTION = `JSON HTTP API behind a packaging-design editor.

* **Base address.** Behind the reverse proxy every path below is reached under the \`/api\` prefix
  (see \`servers\`); a directly run server has no prefix.
* **Account surface** (\`bearerAuth\`): \`Authorization: Bearer <token>\`, the token coming from
  \`POST /auth/register\` or \`POST /auth/login\` (valid 7 days).
* **Admin surface** (\`bearerAuth\`, role \`admin\`): \`/admin/*\`; any other account gets 403.
* **Public v1 surface** (\`apiKey\`): \`x-api-key: pf_…\`, a key issued by \`POST /api-keys\`.
* **Errors**: every failure is an \`ApiError\` \`{ statusCode, error, message }\`. Request bodies and
  query strings reject unknown fields (400); JSON bodies are limited to 1 MiB (413).`;

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The token returned by POST /auth/register or POST /auth/login.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN the service was started with (GET /metrics only).',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'A developer key (pf_ followed by 48 hexadecimal characters) issued by POST /api-keys.',
  },
} as const;

