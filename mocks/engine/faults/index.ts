/**
 * Targeted, deterministic faults (docs/mock.md, "Targeted faults"): `engine.admin.faults` and
 * `/__mock/faults`.
 *
 * @example
 * mock.admin.faults.add({ operation: 'getAction', status: 500, times: 2 });
 */
export { acceptedCases, createFaults, type Faults } from './faults.ts';
export {
  CASE_OPERATIONS,
  DEFAULT_FAILURE_CODE,
  FaultInputError,
  type FaultSpec,
  faultStatuses,
  MAX_FAULT_DELAY_MS,
  MAX_FAULT_TIMES,
  parseFault,
} from './input.ts';
export type { FaultInput, FaultRequest, FaultView } from './types.ts';
