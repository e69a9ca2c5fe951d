/**
 * The recorder's last line of defence: after writing, it searches the file for every key value it saw
 * and every value it scrubbed, and deletes the file when one is there. Two real gaps of the scrub
 * rules force a leak: a key inside the `--target` URL (the HAR's `_target` and comment name the target
 * as given), and a customer named like a word of a pseudonym's format (free text becomes
 * `[text 1a2b3c4d]`, so a customer called "text" still appears as a whole token).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingResult, startRecorder } from '../src/record/recorder.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-record-leak-'));
const KEY = 'cca_live_leaky_key_0123456789';
let target: Server;
let origin = '';
/** The customer name the stand-in target answers with; each test sets it. */
let customer = 'Kwame Dubois';

beforeAll(async () => {
  target = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ data: [{ actionId: '0042', actionTitle: 'Where is my order?', userName: customer }] }),
    );
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Records one list read through a recorder in front of `base`, then stops it. */
async function record(base: string, out: string): Promise<RecordingResult> {
  const recorder = await startRecorder({ target: base, out });
  const answer = await fetch(`${recorder.url}/v0/action/list`, { headers: { 'x-api-key': KEY } });
  expect(answer.status).toBe(200);
  await answer.text();
  return recorder.stop();
}

describe('recorder leak check', () => {
  it('keeps a clean recording (the control: same exchange, nothing leaks)', async () => {
    customer = 'Kwame Dubois';
    const out = join(dir, 'clean.har');
    const result = await record(origin, out);
    expect(result.ok).toBe(true);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('Kwame Dubois');
    expect(text).toContain('0042');
  });

  it('deletes the file when a key it saw is still in it (the key in the --target URL)', async () => {
    customer = 'Kwame Dubois';
    const out = join(dir, 'key-in-target.har');
    const result = await record(`${origin}/tenants/${KEY}`, out);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/still appeared in the file; it was deleted/);
    expect(existsSync(out)).toBe(false);
  });

  it('deletes the file when a scrubbed value is still in it (a customer named like the text pseudonym)', async () => {
    customer = 'text';
    const out = join(dir, 'value.har');
    const result = await record(origin, out);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/1 scrubbed value\(s\) or key\(s\)/);
    expect(existsSync(out)).toBe(false);
  });
});
