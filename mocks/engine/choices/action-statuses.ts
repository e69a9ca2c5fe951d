/**
 * Choice `actionStatuses`: the names of action states beyond OPEN (section 3 shows only OPEN, as a
 * filter value). The data keeps its own states; answers and filter terms are translated at the edge.
 */
import type { Choices } from '../../../src/contract/choice-points.ts';

const ALTERNATE: Readonly<Record<string, string>> = {
  PENDING: 'WAITING',
  ESCALATED: 'ON_HOLD',
  CLOSED: 'RESOLVED',
  CANCELLED: 'DISMISSED',
};
const BACK: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ALTERNATE).map(([a, b]) => [b, a]),
);

/** The name a client sees for a stored status. */
export function statusOut(choices: Pick<Choices, 'actionStatuses'>, status: unknown): unknown {
  if (choices.actionStatuses === 'contract' || typeof status !== 'string') return status;
  return ALTERNATE[status] ?? status;
}

/** The stored status a client's filter value names (a contract name is no state here: it matches nothing). */
export function statusIn(choices: Pick<Choices, 'actionStatuses'>, value: string): string {
  if (choices.actionStatuses === 'contract') return value;
  return BACK[value] ?? (ALTERNATE[value] === undefined ? value : `${value}\u0000unknown`);
}
