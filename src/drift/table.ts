/**
 * Our own table of drift checks: every difference between the contract and the live document is
 * classified into exactly one of these ids. The table, not the diff library, is what cca-kit tests and
 * documents (docs/drift.md); the adapter in classify.ts maps the library's findings onto it.
 */

/** How a change affects a client built against the contract. `info` changes only the documentation. */
export type DriftLevel = 'breaking' | 'additive' | 'info';

export const DRIFT_LEVELS: readonly DriftLevel[] = ['breaking', 'additive', 'info'];

export interface DriftCheck {
  readonly id: string;
  readonly level: DriftLevel;
  readonly title: string;
  /** Why this level; where tools disagree, the choice made. */
  readonly why: string;
}

const check = (id: string, level: DriftLevel, title: string, why: string): DriftCheck => ({
  id,
  level,
  title,
  why,
});

export const DRIFT_CHECKS = [
  check('op-removed', 'breaking', 'operation removed', 'clients calling it get 404 or 405'),
  check('op-added', 'additive', 'operation added', 'new endpoints appear without a version bump (spec 9.3)'),
  check('param-added-required', 'breaking', 'new required request parameter', 'existing calls lack it'),
  check('param-added-optional', 'additive', 'new optional request parameter', 'existing calls stay valid'),
  check(
    'param-removed',
    'breaking',
    'request parameter removed',
    'a client still sending it may be rejected or silently ignored (oasdiff warns; we fail)',
  ),
  check('param-became-required', 'breaking', 'request parameter became required', 'existing calls lack it'),
  check(
    'param-became-optional',
    'additive',
    'request parameter became optional',
    'existing calls stay valid',
  ),
  check(
    'body-became-required',
    'breaking',
    'request body became required',
    'calls without a body are rejected',
  ),
  check('body-became-optional', 'additive', 'request body became optional', 'existing calls stay valid'),
  check(
    'request-media-type-removed',
    'breaking',
    'request media type removed',
    'clients sending it are rejected (415)',
  ),
  check('request-media-type-added', 'additive', 'request media type added', 'existing calls stay valid'),
  check(
    'request-property-added-required',
    'breaking',
    'new required request property',
    'existing bodies lack it',
  ),
  check(
    'request-property-added-optional',
    'additive',
    'new optional request property',
    'existing bodies stay valid',
  ),
  check(
    'request-property-removed',
    'breaking',
    'request property removed',
    'a client still sending it may be rejected or silently ignored (oasdiff warns; we fail)',
  ),
  check(
    'request-property-became-required',
    'breaking',
    'request property became required',
    'existing bodies lack it',
  ),
  check(
    'request-property-became-optional',
    'additive',
    'request property became optional',
    'existing bodies stay valid',
  ),
  check(
    'request-enum-narrowed',
    'breaking',
    'request enum value removed (or enum added)',
    'values clients send are refused',
  ),
  check(
    'request-enum-widened',
    'additive',
    'request enum value added (or enum removed)',
    'existing values stay valid',
  ),
  check(
    'request-limit-tightened',
    'breaking',
    'tighter request limit (maximum, minimum, length, items, pattern)',
    'values clients send may now be refused',
  ),
  check('request-limit-loosened', 'additive', 'looser request limit', 'existing values stay valid'),
  check('request-became-nullable', 'additive', 'request value accepts null', 'existing values stay valid'),
  check(
    'request-no-longer-nullable',
    'breaking',
    'request value no longer accepts null',
    'clients sending null are refused',
  ),
  check('request-type-widened', 'additive', 'request value accepts more types', 'existing values stay valid'),
  check(
    'response-property-added',
    'additive',
    'new response property',
    'clients must tolerate unknown fields (spec 9.3)',
  ),
  check(
    'response-property-removed',
    'breaking',
    'required response property removed',
    'clients reading it break',
  ),
  check(
    'response-optional-property-removed',
    'breaking',
    'optional response property removed',
    'tools disagree (oasdiff: warning); clients that read it when present lose data silently, so we call it breaking; --level response-optional-property-removed=additive to relax',
  ),
  check(
    'response-property-became-optional',
    'breaking',
    'response property became optional',
    'clients reading it meet undefined',
  ),
  check(
    'response-property-became-required',
    'additive',
    'response property became required',
    'clients already handle it present',
  ),
  check('response-became-nullable', 'breaking', 'response value may be null', 'clients reading it meet null'),
  check(
    'response-no-longer-nullable',
    'additive',
    'response value never null',
    'clients already handle non-null',
  ),
  check(
    'response-enum-widened',
    'breaking',
    'response enum value added',
    'clients switch on it and meet a value they do not know; tools disagree (oasdiff: warning); --level response-enum-widened=additive to relax',
  ),
  check(
    'response-enum-narrowed',
    'additive',
    'response enum value removed',
    'clients already handle the remaining values',
  ),
  check(
    'response-limit-changed',
    'additive',
    'response limit changed (maximum, minimum, length, items, pattern)',
    'a description of what the server sends, not a promise clients enforce; --level to make it stricter',
  ),
  check('type-changed', 'breaking', 'type changed', 'values no longer have the type clients read or send'),
  check(
    'success-status-removed',
    'breaking',
    'success status removed',
    'clients expecting it see another status',
  ),
  check(
    'error-status-removed',
    'additive',
    'error status removed',
    'clients handle fewer errors than they expect',
  ),
  check(
    'status-added',
    'additive',
    'status added',
    'clients treat unknown statuses by class; new statuses appear with new features',
  ),
  check(
    'response-media-type-removed',
    'breaking',
    'response media type removed',
    'clients accepting only it get 406 or another body',
  ),
  check('response-media-type-added', 'additive', 'response media type added', 'existing clients unaffected'),
  check(
    'documentation-changed',
    'info',
    'documentation changed (description, summary, example, tag)',
    'no effect on the wire',
  ),
  check(
    'other-breaking',
    'breaking',
    'other change the diff library (api-smart-diff) calls breaking',
    'not in our table; the library level is kept',
  ),
  check(
    'other-change',
    'additive',
    'other change the diff library calls non-breaking, deprecated or unclassified',
    'not in our table; reported so nothing is hidden',
  ),
] as const satisfies readonly DriftCheck[];

export type DriftCheckId = (typeof DRIFT_CHECKS)[number]['id'];

const BY_ID: ReadonlyMap<string, DriftCheck> = new Map(DRIFT_CHECKS.map((c) => [c.id, c]));

export function driftCheck(id: DriftCheckId): DriftCheck {
  const found = BY_ID.get(id);
  if (found === undefined) throw new Error(`unknown drift check ${id}`);
  return found;
}

export function isDriftCheckId(id: string): id is DriftCheckId {
  return BY_ID.has(id);
}

/** Level overrides from `--level id=level`, checked once. */
export type LevelOverrides = ReadonlyMap<DriftCheckId, DriftLevel>;

export function parseLevelOverride(text: string): [DriftCheckId, DriftLevel] {
  const at = text.indexOf('=');
  const id = at < 0 ? text : text.slice(0, at);
  const level = at < 0 ? '' : text.slice(at + 1);
  if (!isDriftCheckId(id))
    throw new RangeError(
      `--level ${JSON.stringify(text)}: unknown check id ${JSON.stringify(id)} (see docs/drift.md)`,
    );
  if (!DRIFT_LEVELS.includes(level as DriftLevel))
    throw new RangeError(`--level ${JSON.stringify(text)}: level must be one of ${DRIFT_LEVELS.join(', ')}`);
  return [id, level as DriftLevel];
}

export function levelOf(id: DriftCheckId, overrides: LevelOverrides): DriftLevel {
  return overrides.get(id) ?? driftCheck(id).level;
}
