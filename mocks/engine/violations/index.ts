/**
 * The violation log (for SDK authors): records every contract violation of incoming requests with
 * the rule it broke, ids that a client mangled by parsing them as numbers (precision loss), undeclared
 * query parameters (warnings) and hints. See docs/sdk-authors.md.
 *
 * @example
 * const log = createViolationLog();
 * const engine = createEngine({ interceptors: [log] });
 * // ... run the client's tests against the engine (or GET /__mock/violations over HTTP)
 * expectNoViolations(log); // throws a ViolationError naming the rule and the request
 */
export {
  atLeast,
  describeViolation,
  type ExpectNoViolationsOptions,
  expectNoViolations,
  isViolationError,
  ViolationError,
  type ViolationSource,
} from './expect.ts';
export { findKnownId, ID_PATH_PARAMETERS, type IdPathParameter, type IdRecord } from './known-ids.ts';
export {
  createViolationLog,
  DEFAULT_MAX_BODY_CHARS,
  DEFAULT_VIOLATION_CAPACITY,
  REDACTED,
  type ViolationLog,
  type ViolationLogOptions,
} from './log.ts';
export { doubleRoundTripPreimages, type PreimageOptions, printedAfterDoubleParse } from './precision.ts';
export { registerAliasResolver, violationLogOf } from './registry.ts';
export type * from './types.ts';
export { SEVERITY_OF } from './types.ts';
