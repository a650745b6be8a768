import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installAnswerCompression, SerializedAnswers } from './compress-answers';

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

describe('answers serialized once per value', () => {
  it('serves the same bytes while the value is the same, and the new value once it changes', async () => {
    const answers = new SerializedAnswers();
    let current = { items: bigList.items.slice(0, 100) };
    let built = 0;
    const app = Fastify();
    installAnswerCompression(app);
    app.get('/page', { config: { compress: true } }, async (request, reply) =>
      answers.send(request, reply, current, () => {
        built += 1;
        return current;
      }),
    );
    await app.ready();
    const gzipped = () => app.inject({ url: '/page', headers: { 'accept-encoding': 'gzip' } });
    const first = await gzipped();
    const second = await gzipped();
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(JSON.parse(gunzipSync(second.rawPayload).toString())).toEqual(current);
    // A client without gzip gets the JSON itself, never a compressed body or one decompressed for it.
    const identity = await app.inject({ url: '/page', headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toEqual(current);
    expect(built).toBe(1);

    current = { items: bigList.items.slice(100) };
    const changed = await gzipped();
    expect(JSON.parse(gunzipSync(changed.rawPayload).toString())).toEqual(current);
    expect((await app.inject({ url: '/page' })).json()).toEqual(current);
    expect(built).toBe(2);
    await app.close();
  });
});
