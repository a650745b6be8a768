import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS from 'openapi-typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../test/support/app';

const GENERATED = new URL('../../../../../packages/client/src/schema.generated.ts', import.meta.url);
const HEADER =
  '// Generated from /api/v1/openapi.json by `npm run generate -w @simcode/client`: do not edit by hand.\n';

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

describe('the JSON API’s client', () => {
  it('is generated from the OpenAPI document the server publishes, and is up to date', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/offers',
        '/orders',
        '/orders/{id}/code',
        '/rents',
        '/balance',
        '/ledger',
        '/events',
      ]),
    );
    const generated = HEADER + (await openapiTS(document, { exportType: false }));
    if (process.env.UPDATE_API_CLIENT) writeFileSync(GENERATED, generated);
    expect(readFileSync(GENERATED, 'utf8'), 'run `npm run generate -w @simcode/client`').toBe(generated);
  }, 120_000);
});
