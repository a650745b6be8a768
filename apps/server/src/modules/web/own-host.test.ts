import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../test/support/app';
import { ownHostRedirect } from './own-host';

describe('ownHostRedirect', () => {
  it('sends a loopback alias of a loopback PUBLIC_URL to PUBLIC_URL', () => {
    expect(ownHostRedirect('http://127.0.0.1:3000', 'localhost:3000')).toBe('http://127.0.0.1:3000');
    expect(ownHostRedirect('http://localhost:3000', '127.0.0.1:3000')).toBe('http://localhost:3000');
    expect(ownHostRedirect('http://localhost:3000', '[::1]:3000')).toBe('http://localhost:3000');
  });

  it('sends www to the bare domain and back', () => {
    expect(ownHostRedirect('https://simcode.example', 'www.simcode.example')).toBe('https://simcode.example');
    expect(ownHostRedirect('https://www.simcode.example', 'simcode.example')).toBe(
      'https://www.simcode.example',
    );
  });

  it('leaves PUBLIC_URL itself, other ports and names that are not its own alone', () => {
    expect(ownHostRedirect('http://127.0.0.1:3000', '127.0.0.1:3000')).toBeNull();
    expect(ownHostRedirect('https://simcode.example', 'SIMCODE.example')).toBeNull();
    expect(ownHostRedirect('http://127.0.0.1:3000', 'localhost:5173')).toBeNull();
    expect(ownHostRedirect('https://simcode.example', 'app-internal:3000')).toBeNull();
    expect(ownHostRedirect('https://simcode.example', 'evil.example')).toBeNull();
    expect(ownHostRedirect('https://simcode.example', undefined)).toBeNull();
  });
});

describe('a page request on another name of the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://127.0.0.1:3201' });
  });
  afterAll(() => closeTestApp(t));

  const get = (url: string, host: string) => t.app.inject({ url, headers: { host } });

  it('is redirected to PUBLIC_URL with its path and query', async () => {
    const response = await get('/dashboard/topup?order=abc', 'localhost:3201');
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('http://127.0.0.1:3201/dashboard/topup?order=abc');
  });

  it('leaves health checks, the API and pages on PUBLIC_URL itself alone', async () => {
    expect((await get('/healthz', 'localhost:3201')).statusCode).toBe(200);
    expect((await get('/api/public-config', 'localhost:3201')).statusCode).toBe(200);
    expect((await get('/', '127.0.0.1:3201')).statusCode).not.toBe(308);
  });
});
