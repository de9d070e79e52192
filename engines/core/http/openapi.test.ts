// withServerErrors: the one way a service's OpenAPI document lists 500, 503 and 507 (every service's document is checked in test/crash-safety/documented-statuses.test.ts).
import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_RESPONSES, withServerErrors, type JsonObject } from './openapi.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };

function doc(): JsonObject {
  const op = (status: string): JsonObject => ({ responses: { [status]: { description: 'ok' } } });
  return {
    openapi: '3.1.0',
    paths: {
      '/items': { get: op('200'), post: { responses: { '201': { description: 'made' }, '503': { description: 'no model installed' } } } },
      '/items/{id}': { get: op('200'), delete: op('204'), parameters: [] },
      '/check': { post: op('200') },
    },
    components: { schemas: { Error: { type: 'object' } } },
  };
}

const statuses = (d: JsonObject, method: string, p: string): string[] => Object.keys((d as Doc).paths[p]?.[method]?.responses ?? {}).sort();

describe('withServerErrors', () => {
  it('lists 500 on every operation, 503 and 507 on those that write, keeping a status the route documents itself', () => {
    const d = withServerErrors(doc(), { storeNothing: ['post /check'] });
    expect(statuses(d, 'get', '/items')).toEqual(['200', '500']);
    expect(statuses(d, 'post', '/items')).toEqual(['201', '500', '503', '507']);
    expect((d as Doc).paths['/items']?.['post']?.responses['503']?.description).toBe('no model installed');
    expect((d as Doc).paths['/items']?.['post']?.responses['507']?.description).toBe(SERVER_ERROR_RESPONSES['507']);
    expect(statuses(d, 'delete', '/items/{id}')).toEqual(['204', '500', '503', '507']);
    expect(statuses(d, 'post', '/check')).toEqual(['200', '500']);
    expect(((d as Doc).paths['/items']?.['get']?.responses['500'] as unknown as { content: unknown }).content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
  });

  it('lists 503 on reads too for a store that is a database server, but not on the operations that read nothing', () => {
    const d = withServerErrors(doc(), { unavailableOnReads: true, storeNothing: ['get /items/{id}'] });
    expect(statuses(d, 'get', '/items')).toEqual(['200', '500', '503']);
    expect(statuses(d, 'get', '/items/{id}')).toEqual(['200', '500']);
  });

  it('refuses a storeNothing entry that names no operation, and a document without the Error schema', () => {
    expect(() => withServerErrors(doc(), { storeNothing: ['post /gone'] })).toThrow(/post \/gone/);
    expect(() => withServerErrors({ paths: {} })).toThrow(/Error/);
  });
});
