import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What a sealed value starts with: the scheme and the key's version, so a later key can be told apart. */
const SEALED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_BOX_KEY_BYTES = 32;

/**
 * AES-256-GCM for the few secrets the server must read back in clear (two-factor secrets, customer
 * webhook secrets): a copy of the database without the key (kept in the environment, or DATA_DIR/secrets.json
 * in development) holds none of them. Sealed values read `enc:v1:<iv>.<tag>.<ciphertext>` in base64url.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The clear value of a sealed one; a value stored before sealing existed is returned as it is. */
  open(stored: string): string;
  isSealed(stored: string): boolean;
}

/** Reads a key written as 64 hexadecimal digits or 43 base64url characters (32 bytes either way). */
export function parseSecretBoxKey(text: string): Buffer | null {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64url');
  return key.length === SECRET_BOX_KEY_BYTES ? key : null;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_BOX_KEY_BYTES) throw new Error('the secret box key must be 32 bytes');
  const isSealed = (stored: string) => stored.startsWith(SEALED_PREFIX);
  return {
    isSealed,
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${SEALED_PREFIX}${[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.')}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const [iv, tag, sealed] = stored.slice(SEALED_PREFIX.length).split('.');
      if (iv === undefined || tag === undefined || sealed === undefined)
        throw new Error('a sealed secret is malformed');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
