import { describe, expect, it } from 'vitest';
import { rateLimitSubject } from '../src/client-address.ts';

describe('rate-limit subject of a client address', () => {
  it('is the address itself for IPv4, also when mapped into IPv6', () => {
    expect(rateLimitSubject('81.2.69.142')).toBe('81.2.69.142');
    expect(rateLimitSubject('::ffff:81.2.69.142')).toBe('81.2.69.142');
    expect(rateLimitSubject('::FFFF:10.0.0.1')).toBe('10.0.0.1');
  });

  it('is the /64 network for IPv6, however the address is written', () => {
    const network = '2a00:1450:4001:80b::/64';
    for (const address of [
      '2a00:1450:4001:80b::200e',
      '2a00:1450:4001:080b:0000:0000:0000:0001',
      '2A00:1450:4001:80B:FFFF:FFFF:FFFF:FFFF',
      '2a00:1450:4001:80b:1:2:3.4.5.6',
      'fe80::1%eth0'.replace('fe80::1', '2a00:1450:4001:80b::1'),
    ]) {
      expect(rateLimitSubject(address), address).toBe(network);
    }
    expect(rateLimitSubject('2a00:1450:4001:80c::200e')).toBe('2a00:1450:4001:80c::/64');
    expect(rateLimitSubject('2a00:1450::1')).toBe('2a00:1450:0:0::/64');
    expect(rateLimitSubject('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitSubject('fd00::')).toBe('fd00:0:0:0::/64');
  });

  it('keeps anything that is not an address apart as it is', () => {
    expect(rateLimitSubject('unknown')).toBe('unknown');
  });
});
