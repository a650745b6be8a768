import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Secrets that development generates once and keeps under DATA_DIR; production must provide them. */
export const REQUIRED_SECRETS = [
  'JWT_SECRET',
  'ALTCHA_HMAC_KEY',
  'SMS_WEBHOOK_SECRET',
  'DATA_ENCRYPTION_KEY',
] as const;
/** Keys of the built-in simulator and sandbox: demo features, so they are generated in every mode. */
export const DEMO_SECRETS = ['SIMULATOR_API_KEY', 'SANDBOX_API_KEY', 'SANDBOX_IPN_SECRET'] as const;
type GeneratedSecret = (typeof REQUIRED_SECRETS)[number] | (typeof DEMO_SECRETS)[number];

export function readOrCreateSecrets(
  dataDir: string,
  missing: GeneratedSecret[],
): Record<GeneratedSecret, string> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Record<GeneratedSecret, string>> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // No secrets file yet: it is written below.
  }
  let changed = false;
  for (const name of missing) {
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    // The data folder is its owner's alone (see db/data-dir.ts, which also fixes an older folder's modes).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  return stored as Record<GeneratedSecret, string>;
}
