import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A body ready in the three encodings browsers accept, compressed once instead of on every request. */
export interface Precompressed {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

export function precompress(body: string | Buffer, version: string): Precompressed {
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  return {
    identity,
    // The highest quality: compressed once per version and sent many times, so every byte saved counts.
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: 9 }),
    etag: `"${version}-${identity.length.toString(36)}"`,
  };
}

/** Sends the encoding the client accepts best, or 304 when it already has this version. */
export function sendPrecompressed(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: Precompressed,
  headers: { contentType: string; cacheControl: string; vary?: string },
) {
  reply
    .header('content-type', headers.contentType)
    .header('cache-control', headers.cacheControl)
    .header('vary', headers.vary ? `accept-encoding, ${headers.vary}` : 'accept-encoding')
    .header('etag', entry.etag);
  if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
  const accepted = request.headers['accept-encoding'] ?? '';
  if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(entry.br);
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(entry.gzip);
  return reply.send(entry.identity);
}

/** A tag of the body itself: the same bytes carry the same ETag across versions and restarts. */
function contentTag(body: string): string {
  return createHash('sha1').update(body).digest('base64url').slice(0, 16);
}

/**
 * JSON answers that are the same for every caller until their data changes (the catalog): built,
 * serialized and compressed once per version. A version names when the data was built (the catalog and its
 * delivery figures are rebuilt every minute), not that it changed: an answer whose JSON comes out the same
 * as in the previous version keeps its compressed bodies and its ETag, so it is not compressed again and
 * browsers keep their copies (a 304) until the content itself changes.
 */
export class PrecomputedJson {
  #entries = new Map<string, Precompressed>();
  /** The previous version's answers, reused when a key's JSON has not changed. */
  #previous = new Map<string, Precompressed>();
  #version: string | undefined;

  get(key: string, version: string, build: () => unknown): Precompressed {
    if (version !== this.#version) {
      this.#previous = this.#entries;
      this.#entries = new Map();
      this.#version = version;
    }
    let entry = this.#entries.get(key);
    if (!entry) {
      const json = JSON.stringify(build());
      const earlier = this.#previous.get(key);
      entry =
        earlier && earlier.identity.length === Buffer.byteLength(json) && earlier.identity.toString() === json
          ? earlier
          : precompress(json, contentTag(json));
      this.#entries.set(key, entry);
    }
    return entry;
  }
}
