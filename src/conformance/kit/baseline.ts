import { createHash } from 'node:crypto';
import type { Baseline } from './options.ts';
import type { ConformanceReport } from './report.ts';

/**
 * Stable fingerprint of a failure: law id, rule id and the kind of violation (a short code the law
 * chooses, e.g. `status:200`), never the counterexample, so it survives new seeds and data.
 */
export function fingerprintOf(lawId: string, ruleId: string, code: string): string {
  return createHash('sha256').update(`${lawId}\u0000${ruleId}\u0000${code}`).digest('hex').slice(0, 16);
}

/** Parses a baseline file; throws with a clear message on a malformed one. */
export function parseBaseline(text: string): Baseline {
  const data = JSON.parse(text) as unknown;
  if (typeof data !== 'object' || data === null || (data as { version?: unknown }).version !== 1) {
    throw new TypeError('baseline file must be a JSON object with "version": 1');
  }
  const failures = (data as { failures?: unknown }).failures;
  if (!Array.isArray(failures)) throw new TypeError('baseline file needs a "failures" array');
  for (const f of failures) {
    const entry = f as { ruleId?: unknown; fingerprint?: unknown };
    if (typeof entry.ruleId !== 'string' || typeof entry.fingerprint !== 'string') {
      throw new TypeError('each baseline failure needs string "ruleId" and "fingerprint"');
    }
  }
  return data as Baseline;
}

/** The baseline that accepts every failure of a report (`--update-baseline`). */
export function baselineFrom(report: ConformanceReport): Baseline {
  const failures = report.laws.flatMap((law) =>
    law.failures.map((f) => ({
      ruleId: f.ruleId,
      fingerprint: f.fingerprint,
      lawId: law.lawId,
      message: f.message,
    })),
  );
  return { version: 1, failures };
}

export function isKnown(baseline: Baseline, ruleId: string, fingerprint: string): boolean {
  return baseline.failures.some((f) => f.ruleId === ruleId && f.fingerprint === fingerprint);
}
