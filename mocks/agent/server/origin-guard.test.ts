import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOriginGuard } from './origin-guard.ts';

const request = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:4010/mcp', { method: 'POST', headers });
const guard = createOriginGuard(() => '127.0.0.1:4010');

describe('origin guard (DNS rebinding)', () => {
  it('accepts loopback names on any port, the own host, and no Origin', () => {
    for (const host of ['localhost', 'localhost:1', '127.0.0.1:4010', '[::1]:9', 'LOCALHOST:80'])
      expect(guard(request({ host })), host).toBeUndefined();
    expect(guard(request({ host: '127.0.0.1:4010', origin: 'http://localhost:3000' }))).toBeUndefined();
  });

  it('refuses a foreign Host, a foreign Origin, an unparsable Origin, with 403', () => {
    for (const headers of [
      { host: 'evil.example.com' },
      { host: 'localhost.evil.com' },
      { host: '127.0.0.1.nip.io:4010' },
      { host: 'localhost', origin: 'https://attacker.example' },
      { host: 'localhost', origin: 'null' },
    ])
      expect(guard(request(headers))?.status, JSON.stringify(headers)).toBe(403);
  });

  it('property: any host name that is not loopback is refused, in Host or in Origin', () => {
    const names = fc.domain().filter((d) => !['localhost'].includes(d.toLowerCase()));
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 65_535 }), (name, port) => {
        expect(guard(request({ host: `${name}:${port}` }))?.status).toBe(403);
        expect(guard(request({ host: 'localhost', origin: `http://${name}:${port}` }))?.status).toBe(403);
      }),
    );
  });

  it('is configurable: extra hosts and origins, or off', () => {
    const configured = createOriginGuard(() => undefined, {
      allowedHosts: ['mock.internal:4010'],
      allowedOrigins: ['https://dev.example.com'],
    });
    expect(
      configured(request({ host: 'mock.internal:4010', origin: 'https://dev.example.com' })),
    ).toBeUndefined();
    expect(configured(request({ host: 'mock.internal:4011' }))?.status).toBe(403);
    const off = createOriginGuard(() => undefined, { enabled: false });
    expect(off(request({ host: 'evil.example.com' }))).toBeUndefined();
  });
});
