/**
 * The `oasdiff` binary (https://github.com/oasdiff/oasdiff), used only when it is on PATH: a second
 * opinion on the breaking changes, reported beside ours (`cca-kit drift --oasdiff`). Not a dependency.
 */
import { execFile } from 'node:child_process';

export interface OasdiffChange {
  readonly id: string;
  readonly level: number;
  readonly operation: string;
  readonly text: string;
}

export type OasdiffResult =
  | { readonly available: false; readonly reason: string }
  | { readonly available: true; readonly ok: true; readonly changes: readonly OasdiffChange[] }
  | { readonly available: true; readonly ok: false; readonly reason: string };

const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 32 * 1024 * 1024;

function parseChanges(stdout: string): OasdiffChange[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout === '' ? '[]' : stdout);
  } catch (cause) {
    return `oasdiff printed something other than JSON (${(cause as Error).message})`;
  }
  if (!Array.isArray(parsed)) return 'oasdiff printed JSON that is not a list of changes';
  return parsed.map((c: Record<string, unknown>) => ({
    id: String(c['id'] ?? ''),
    level: typeof c['level'] === 'number' ? c['level'] : 0,
    operation: `${String(c['operation'] ?? '')} ${String(c['path'] ?? '')}`.trim(),
    text: String(c['text'] ?? ''),
  }));
}

/** `oasdiff breaking BASE REVISION --format json`; the files are the two documents on disk. */
export function runOasdiff(
  basePath: string,
  revisionPath: string,
  binary = 'oasdiff',
): Promise<OasdiffResult> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ['breaking', basePath, revisionPath, '--format', 'json'],
      { timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, windowsHide: true },
      (error, stdout, stderr) => {
        if (error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          resolve({ available: false, reason: `${binary} is not installed (not found on PATH)` });
          return;
        }
        // oasdiff exits non-zero with --fail-on only; any other failure is reported with its stderr.
        if (error !== null && stdout === '') {
          resolve({
            available: true,
            ok: false,
            reason: `${binary} failed: ${stderr.trim() || error.message}`,
          });
          return;
        }
        const changes = parseChanges(stdout);
        resolve(
          typeof changes === 'string'
            ? { available: true, ok: false, reason: changes }
            : { available: true, ok: true, changes },
        );
      },
    );
  });
}
