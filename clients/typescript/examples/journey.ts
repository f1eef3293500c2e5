// The journey through the packaged client: register, create a project, upload an image, fetch the
// project's dieline. The same source compiles as an ES module (journey.mts) and as CommonJS
// (journey.cts) in scripts/ci-client-package.sh, under `tsc --strict` with module nodenext.
//   BASE_URL=http://127.0.0.1:3000 node journey.js
import { asFormData, createPackagingClient, type ApiError } from 'packaging-service-client';

// A 1 × 1 PNG: any image of yours will do.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function check<T>(step: string, result: { data?: T; error?: ApiError | unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

async function main(): Promise<void> {
  const base = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
  const email = `client-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

  const auth = check(
    'register',
    await createPackagingClient(base).POST('/auth/register', {
      body: { email, password: 'correct horse battery staple', name: 'Client example' },
    }),
  );
  const api = createPackagingClient(base, { token: auth.token });

  const { project } = check('create project', await api.POST('/projects', { body: { name: 'Spring mailer', templateId: 'mailer-box' } }));

  const { asset } = check(
    'upload',
    await api.POST('/assets', {
      body: { file: new Blob([PNG], { type: 'image/png' }) },
      bodySerializer: asFormData('label.png'),
    }),
  );

  const svg = check(
    'dieline',
    await api.GET('/projects/{id}/dieline', {
      params: { path: { id: project.id }, query: { format: 'svg' } },
      parseAs: 'text',
    }),
  );
  if (!svg.includes('<svg')) throw new Error('dieline: not an SVG');

  console.log(
    `${MODULE_KIND}: registered ${auth.user.email}, project ${project.id}, asset ${asset.url}, dieline ${svg.length} bytes of SVG`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
