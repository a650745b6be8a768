import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PrecomputedJson } from './precompressed';

describe('PrecomputedJson', () => {
  it('builds an answer once per version, in every encoding', () => {
    const answers = new PrecomputedJson();
    let builds = 0;
    const build = () => {
      builds += 1;
      return { success: true, countries: ['US', 'GB'] };
    };
    const first = answers.get('countries', 'v1', build);
    expect(answers.get('countries', 'v1', build)).toBe(first);
    expect(builds).toBe(1);
    const json = '{"success":true,"countries":["US","GB"]}';
    expect(first.identity.toString()).toBe(json);
    expect(gunzipSync(first.gzip).toString()).toBe(json);
    expect(brotliDecompressSync(first.br).toString()).toBe(json);
  });

  it('keeps the compressed bodies and the ETag of an answer a new version left unchanged', () => {
    const answers = new PrecomputedJson();
    const first = answers.get('countries', 'v1', () => ({ countries: ['US'] }));
    // The catalog is rebuilt every minute: a new version with the same content.
    const again = answers.get('countries', 'v2', () => ({ countries: ['US'] }));
    expect(again).toBe(first);
    const changed = answers.get('countries', 'v3', () => ({ countries: ['US', 'GB'] }));
    expect(changed.etag).not.toBe(first.etag);
    expect(changed.identity.toString()).toBe('{"countries":["US","GB"]}');
  });

  it('tags the same content alike whichever instance built it', () => {
    const build = () => ({ services: [{ id: 'wa', stock: 3 }] });
    expect(new PrecomputedJson().get('s', 'a', build).etag).toBe(
      new PrecomputedJson().get('s', 'b', build).etag,
    );
  });
});
