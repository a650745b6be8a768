import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { publicConfigOf } from './plugin';

function configWith(env: Record<string, string>) {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'simcode-config-')),
    ...env,
  });
}

describe('LANDING_STATS', () => {
  it("defaults to the spec's figures", () => {
    expect(configWith({}).LANDING_STATS).toEqual([148763, 24585, 180, 1000]);
  });

  it('reaches the browser through the public configuration', () => {
    const config = configWith({ LANDING_STATS: ' 5000, 12 ,184,0' });
    expect(publicConfigOf(config).landingStats).toEqual([5000, 12, 184, 0]);
  });

  it.each(['1,2,3', '1,2,3,4,5', '1,-2,3,4', '1,2.5,3,4', 'a,b,c,d', '1,,3,4'])('refuses %j', (value) => {
    expect(() => configWith({ LANDING_STATS: value })).toThrow(ConfigError);
  });
});
