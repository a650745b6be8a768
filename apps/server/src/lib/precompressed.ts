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

/**
 * JSON answers that are the same for every caller until their data changes (the catalog): built,
 * serialized and compressed once per version.
 */
export class PrecomputedJson {
  readonly #entries = new Map<string, Precompressed>();
  #version: string | undefined;

  get(key: string, version: string, build: () => unknown): Precompressed {
    if (version !== this.#version) {
      this.#entries.clear();
      this.#version = version;
    }
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = precompress(JSON.stringify(build()), version);
      this.#entries.set(key, entry);
    }
    return entry;
  }
}
