import { describe, expect, it } from 'vitest';
import { isPublicAddress, resolvePublicAddress } from './public-address';

describe('which addresses a customer webhook may reach', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    // IPv4-compatible, written both ways.
    '::127.0.0.1',
    '::7f00:1',
    '::a00:1',
    '::ffff:0:7f00:1',
    // 6to4 of a private or loopback address.
    '2002:7f00:1::1',
    '2002:c0a8:101::',
    // Local-use NAT64 and Teredo carry an IPv4 part that cannot be trusted: refused whole.
    '64:ff9b:1::808:808',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses a host that resolves to loopback unless private targets are allowed', async () => {
    await expect(resolvePublicAddress('localhost', false)).rejects.toMatchObject({ reason: 'private' });
    await expect(resolvePublicAddress('127.0.0.1', true)).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(resolvePublicAddress('[::1]', false)).rejects.toMatchObject({ reason: 'private' });
  });
});
