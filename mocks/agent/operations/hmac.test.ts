import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, hmacSha256, sha256, toBase64Url } from './hmac.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('the pure SHA-256 / HMAC used for cursors agrees with node:crypto', () => {
  it('sha256 and hmacSha256 of any bytes and keys', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 100 }), (data, key) => {
        expect(hex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
        expect(hex(hmacSha256(key, data))).toBe(createHmac('sha256', key).update(data).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('base64url round-trips and has one spelling per byte string', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect(fromBase64Url(text)).toEqual(bytes);
      }),
    );
    expect(fromBase64Url('QR')).toBeUndefined();
    expect(fromBase64Url('a+b/')).toBeUndefined();
  });
});
