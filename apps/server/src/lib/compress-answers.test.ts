import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installAnswerCompression } from './compress-answers';

const bigList = {
  items: Array.from({ length: 200 }, (_, index) => ({ id: index, number: `+1555${index}` })),
};

async function appWithRoutes() {
  const app = Fastify();
  installAnswerCompression(app);
  app.get('/list', { config: { compress: true } }, async () => bigList);
  app.get('/small', { config: { compress: true } }, async () => ({ ok: true }));
  app.get('/plain', async () => bigList);
  await app.ready();
  return app;
}

describe('answer compression', () => {
  it('gzips a large answer of an opted-in route for a client that accepts it, and says so', async () => {
    const app = await appWithRoutes();
    const response = await app.inject({ url: '/list', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('accept-encoding');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(JSON.parse(gunzipSync(response.rawPayload).toString())).toEqual(bigList);
    await app.close();
  });

  it('sends small answers, answers to clients without gzip and other routes as they are', async () => {
    const app = await appWithRoutes();
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } });
    const identity = await app.inject({ url: '/list', headers: { 'accept-encoding': 'identity' } });
    const plain = await app.inject({ url: '/plain', headers: { 'accept-encoding': 'gzip' } });
    for (const response of [small, identity, plain])
      expect(response.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toEqual(bigList);
    expect(identity.headers.vary).toBe('accept-encoding');
    expect(plain.headers.vary).toBeUndefined();
    await app.close();
  });
});
