/**
 * A cut `execute` answer's resume point is true: `truncated.result.resume` names exactly the first item
 * the preview left out (a cursor of the operation, with the same input). Property: for random page
 * sizes, result limits (the cut point) and numbers of pages per execution, a script that pages and
 * returns everything it read, resumed from `truncated.result.resume` when cut and from its returned
 * `nextCursor` when not, gathers every action once, in order, as one limit-100 walk does.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../mocks/agent/sandbox/index.ts';
import { createOperationsHarness } from './agent-operations-support.ts';
import { scaled } from './support/timeouts.ts';

const h = createOperationsHarness({ actions: 150 });
const RANGE = { relative: { unit: 'year', count: 50 } };
const sandboxes = new Map<number, Sandbox>();

function sandboxFor(resultBytes: number): Sandbox {
  let sandbox = sandboxes.get(resultBytes);
  if (sandbox === undefined) {
    sandbox = createSandbox(h.registry, { resultBytes, timeMs: 30_000 });
    sandboxes.set(resultBytes, sandbox);
  }
  return sandbox;
}

afterAll(async () => {
  for (const sandbox of sandboxes.values()) await sandbox.close();
});

async function allIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = (await h.value('query.search.actions', {
      dateRange: RANGE,
      limit: 100,
      ...(cursor === null ? {} : { cursor }),
    })) as { items: { actionId: string }[]; nextCursor: string | null };
    ids.push(...page.items.map((i) => i.actionId));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return ids;
}

/** Pages from `start` (an input), at most `pages` pages, returning every item read and the cursor. */
const script = (start: unknown, pages: number) => `
  let input = ${JSON.stringify(start)};
  const items = [];
  let cursor = null;
  for (let n = 0; n < ${pages}; n++) {
    const page = await call('query.search.actions', input);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor === null) break;
    input = { ...input, cursor };
  }
  return { items, nextCursor: cursor };`;

interface Envelope {
  readonly result: { items: { actionId: string }[]; nextCursor: string | null };
  readonly truncated: { result: { resume: { input: unknown } | null; message: string } | null };
}

describe('execute resume points', () => {
  it(
    'AGENT-MCP-LONG-EXPORT-RESUMES-WITH-CURSOR: following truncated.result.resume until done gathers every item once, in order',
    async () => {
      const expected = await allIds();
      let cutRuns = 0;
      expect(expected.length).toBeGreaterThan(50);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 60 }),
          fc.constantFrom(6_000, 9_000, 14_000, 23_000, 40_000),
          fc.integer({ min: 1, max: 8 }),
          async (limit, resultBytes, pages) => {
            const sandbox = sandboxFor(resultBytes);
            const gathered: string[] = [];
            let start: unknown = { dateRange: RANGE, limit };
            let cuts = 0;
            for (let run = 0; run < 400; run++) {
              const outcome = await sandbox.runScript(h.context('reporting'), script(start, pages));
              if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure).slice(0, 500));
              const envelope = outcome.value as unknown as Envelope;
              gathered.push(...envelope.result.items.map((i) => i.actionId));
              const cut = envelope.truncated.result;
              if (cut !== null) {
                cuts += 1;
                if (cut.resume === null) throw new Error(`cut without a resume point: ${cut.message}`);
                start = cut.resume.input;
                continue;
              }
              if (envelope.result.nextCursor === null) break;
              start = { ...(start as object), cursor: envelope.result.nextCursor };
            }
            expect(gathered).toEqual(expected);
            if (cuts > 0) cutRuns += 1;
          },
        ),
        { numRuns: 12, seed: 30 },
      );
      // The property is about cut answers: most runs must have been cut at least once.
      expect(cutRuns).toBeGreaterThan(6);
    },
    scaled(120_000),
  );
});
