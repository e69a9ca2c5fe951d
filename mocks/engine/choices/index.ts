/**
 * The permitted variations of the mock: at every `x-spec-gap` point where a deployment may choose
 * differently, the engine takes a choice (`choices` option, `cca-kit mock --choice point=value`).
 * Each choice is one small named piece in this folder; `shapeRequest` and `shapeResult` are the only
 * places the pipeline asks for them. The conformance suite must pass the mock under every combination
 * (test/conformance-choices.test.ts).
 */

import {
  CHOICE_NAMES,
  CHOICE_POINTS,
  type ChoiceName,
  type ChoicePoint,
  type Choices,
  choiceValues,
} from '../../../src/contract/choice-points.ts';
import { DEFAULT_CHOICES } from './defaults.ts';

export { renameDocsPathParams } from './docs-path-params.ts';
export { shapeRequest } from './request.ts';
export { shapeResult } from './result.ts';
export { CHOICE_NAMES, CHOICE_POINTS, type ChoiceName, type Choices, choiceValues, DEFAULT_CHOICES };

/** What a caller may pass: any subset of the points, by name. */
export type ChoicesOption = Readonly<Partial<Record<ChoiceName, string>>>;

const isChoiceName = (name: string): name is ChoiceName => Object.hasOwn(CHOICE_POINTS, name);

/**
 * Completes a partial set of choices with the defaults; an unknown point or value is a `RangeError`
 * naming it and listing what is accepted.
 *
 * @example
 * normalizeChoices({ durationFormat: 'seconds' }).durationFormat; // 'seconds'
 * normalizeChoices({ durationFormat: 'days' }); // RangeError: choice durationFormat must be one of ...
 */
export function normalizeChoices(option: ChoicesOption = {}): Choices {
  const out: Record<string, string> = { ...DEFAULT_CHOICES };
  for (const [name, value] of Object.entries(option)) {
    if (value === undefined) continue;
    if (!isChoiceName(name))
      throw new RangeError(`unknown choice ${JSON.stringify(name)} (known: ${CHOICE_NAMES.join(', ')})`);
    const point: ChoicePoint = CHOICE_POINTS[name];
    const listed = choiceValues(name);
    if (typeof value !== 'string' || (!listed.includes(value) && point.accepts?.(value) !== true)) {
      const more = point.accepts === undefined ? '' : ' or a positive integer';
      throw new RangeError(
        `choice ${name} must be one of ${listed.join(', ')}${more} (got ${JSON.stringify(value)})`,
      );
    }
    out[name] = value;
  }
  return out as Choices;
}

/**
 * Reads `point=value` assignments (the CLI's repeated `--choice`, the admin API's list); a malformed
 * one is a `RangeError` naming it. The last assignment of a point wins.
 *
 * @example
 * parseChoiceAssignments(['durationFormat=seconds', 'filterKeys=spec']);
 */
export function parseChoiceAssignments(assignments: readonly string[]): Choices {
  const option: Record<string, string> = {};
  for (const text of assignments) {
    const eq = text.indexOf('=');
    if (eq <= 0 || eq === text.length - 1)
      throw new RangeError(
        `a choice is point=value (got ${JSON.stringify(text)}); points: ${CHOICE_NAMES.join(', ')}`,
      );
    option[text.slice(0, eq)] = text.slice(eq + 1);
  }
  return normalizeChoices(option);
}

/** The points whose value differs from the default, as `point=value` (for start-up lines and reports). */
export function describeChoices(choices: Choices): string[] {
  return CHOICE_NAMES.filter((n) => choices[n] !== DEFAULT_CHOICES[n]).map((n) => `${n}=${choices[n]}`);
}
