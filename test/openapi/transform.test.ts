// The OpenAPI transforms as pure functions: what a route patch adds, status descriptions, literal
// unions as one enum, HEAD operations without bodies, and the shared conventions.
import { describe, expect, it } from 'vitest';
import {
  applyConventions,
  applyOperationPatches,
  collapseLiteralUnions,
  describeResponses,
  documentedPath,
  documentHeadOperations,
  type PathsObject,
} from '../../src/plugins/openapi-transform.js';

describe('OpenAPI transforms', () => {
  it('merges a route patch into its operation: content replaces, other fields merge, headers add up', () => {
    const paths: PathsObject = {
      '/things': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: {} } } },
          responses: { '200': { description: 'OK', headers: { a: 1 } } },
        },
      },
    };
    applyOperationPatches(
      paths,
      new Map([
        [
          'post /things',
          { requestBody: { required: false }, responses: { '200': { headers: { b: 2 } }, '304': { description: 'Not Modified' } } },
        ],
        ['get /missing', { requestBody: { required: false } }],
      ]),
    );
    const operation = paths['/things']!.post!;
    expect(operation.requestBody).toEqual({ required: false, content: { 'application/json': { schema: {} } } });
    expect(operation.responses!['200']).toEqual({ description: 'OK', headers: { a: 1, b: 2 } });
    expect(operation.responses!['304']).toEqual({ description: 'Not Modified', headers: {} });
    expect(paths['/missing']).toBeUndefined();
  });

  it('names statuses, collapses literal unions, and strips bodies from HEAD', () => {
    const paths: PathsObject = { '/x': { get: { responses: { '404': { description: 'Default Response' } } } } };
    describeResponses(paths);
    expect(paths['/x']!.get!.responses!['404']!.description).toBe('Not Found');

    const node = { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] }] };
    collapseLiteralUnions(node);
    expect(node).toEqual({ type: 'string', enum: ['a', 'b'] });
    const mixed = { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'integer' }] };
    collapseLiteralUnions(mixed);
    expect(mixed.anyOf).toHaveLength(2);

    const body = { 'application/json': { schema: {} } };
    const withHead: PathsObject = { '/y': { get: { operationId: 'getY', responses: { '200': { description: 'OK', content: body } } } } };
    withHead['/y']!.head = withHead['/y']!.get;
    documentHeadOperations(withHead);
    expect(withHead['/y']!.head!.operationId).toBe('headY');
    expect(withHead['/y']!.head!.responses!['200']).toEqual({ description: 'OK Headers only, no body.' });
    expect(withHead['/y']!.get!.responses!['200']!.content).toBe(body);
    expect(documentedPath('/things/')).toBe('/things');
    expect(documentedPath('/')).toBe('/');
  });

  it('gives every operation the shared answers and refuses a duplicate operationId', () => {
    const paths: PathsObject = {
      '/z': { post: { operationId: 'makeZ', responses: { '201': { description: 'Created' }, '409': { description: 'Conflict' } } } },
    };
    applyConventions(paths);
    const responses = paths['/z']!.post!.responses!;
    expect(Object.keys(responses).sort()).toEqual(['201', '409', '413', '415', 'default']);
    expect(responses['409']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ApiError' });
    expect(responses['201']!.headers).toHaveProperty('x-request-id');
    expect(() =>
      applyConventions({ '/a': { get: { operationId: 'same', responses: {} } }, '/b': { get: { operationId: 'same', responses: {} } } }),
    ).toThrow(/operationId same/);
  });
});
