/**
 * Timeouts that stretch with the machine: a timeout exists to stop a hung test, never to judge speed,
 * so a CI runner that is slower or busier sets CCA_TEST_TIMEOUT_FACTOR (2 doubles every timeout) and a
 * correct program does not fail for want of CPU. vitest.config.ts scales the default test and hook
 * timeouts with the same factor; a test that sets its own wraps the figure in `scaled`.
 */
export const TIMEOUT_FACTOR = timeoutFactor(process.env['CCA_TEST_TIMEOUT_FACTOR']);

export function timeoutFactor(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const factor = Number(raw);
  if (!Number.isFinite(factor) || factor <= 0)
    throw new RangeError(`CCA_TEST_TIMEOUT_FACTOR must be a positive number, got ${JSON.stringify(raw)}`);
  return factor;
}

/** `ms` times the factor, rounded to a whole millisecond. */
export function scaled(ms: number): number {
  return Math.round(ms * TIMEOUT_FACTOR);
}
