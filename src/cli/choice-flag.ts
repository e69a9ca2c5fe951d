/**
 * `--choice point=value`, shared by `cca-kit mock` and `cca-kit mcp` (both start an engine; the agent
 * interface follows the points that concern what it shows). Apart so `cca-kit mcp` does not load the
 * mock command's module.
 */
import { type Choices, parseChoiceAssignments } from '../../mocks/engine/choices/index.ts';
import { UsageError } from './io.ts';

/** The repeated `--choice point=value` flags; a bad one is a usage error naming it. */
export function choiceFlag(values: readonly string[] | undefined): Choices | undefined {
  if (values === undefined) return undefined;
  try {
    return parseChoiceAssignments(values);
  } catch (error) {
    throw new UsageError(`--choice: ${(error as Error).message}`);
  }
}
