/**
 * The 64 MiB cap of a data file, at both doors that take text: `cca-kit mock --data FILE` (the size is
 * read from the file system, so an oversized file is refused before a byte of it is read) and
 * `parseDataFile` (JSON text). The oversized inputs are made without holding them twice: a sparse file
 * on disk, and one padded string built once per case.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scenario } from '../mocks/engine/data-file/builder.ts';
import { MAX_DATA_FILE_BYTES, parseDataFile } from '../mocks/engine/data-file/validate.ts';
import { main } from '../src/cli/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-data-cap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const small = JSON.stringify(scenario().organization('org_cap').build());

/** A file of `size` bytes: `small` then a sparse run of zero bytes (no memory, almost no disk). */
function sized(name: string, size: number): string {
  const path = join(dir, name);
  writeFileSync(path, small);
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
  return path;
}

async function mockWith(path: string): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['mock', '--port', '0', '--data', path], {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    signal: AbortSignal.abort(),
  });
  return { code, out: out.join('') };
}

describe('data file cap (64 MiB)', () => {
  it('cca-kit mock --data refuses a file one byte over the cap, naming the size and the limit', async () => {
    const { code, out } = await mockWith(sized('over.json', MAX_DATA_FILE_BYTES + 1));
    expect(code).toBe(1);
    expect(out).toContain(
      `${MAX_DATA_FILE_BYTES + 1} bytes is larger than the limit of ${MAX_DATA_FILE_BYTES}`,
    );
    // Refused from its size alone: read, its zero bytes would have been refused as "not JSON".
    expect(out).not.toContain('not JSON');
  });

  it('parseDataFile counts UTF-8 bytes, not characters: half the cap in two-byte characters plus one is over', () => {
    const text = 'é'.repeat(MAX_DATA_FILE_BYTES / 2 + 1);
    expect(text.length).toBeLessThan(MAX_DATA_FILE_BYTES);
    const over = parseDataFile(text);
    expect(over.ok).toBe(false);
    if (!over.ok)
      expect(over.problems[0]?.message).toBe(`the file is larger than ${MAX_DATA_FILE_BYTES} bytes`);
  });

  it('parseDataFile accepts text of exactly the cap and refuses one character more', () => {
    let text = small.padEnd(MAX_DATA_FILE_BYTES, ' ');
    expect(parseDataFile(text).ok).toBe(true);
    text = small.padEnd(MAX_DATA_FILE_BYTES + 1, ' ');
    const over = parseDataFile(text);
    expect(over.ok).toBe(false);
    if (!over.ok)
      expect(over.problems).toEqual([
        { pointer: '', message: `the file is larger than ${MAX_DATA_FILE_BYTES} bytes` },
      ]);
  });
});
