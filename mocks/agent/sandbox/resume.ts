/**
 * Where a cut `execute` answer resumes: the first item the preview left out, named by a cursor the
 * operation accepts for it with the same input. The pool records the pages its calls answered; when
 * the return value was cut in one array only, the last item the preview kept is looked up in those
 * pages, and the operation gives the cursor right after it. Anything else (a cut in several places, an
 * item the calls never answered, an operation without such cursors) has no true resume point: none is
 * named, and the message says to return one page per execution.
 */
import type { AgentContext, OperationRegistry } from '../types.ts';
import type { ResultCut, ResumeHint } from './envelope.ts';

/** A page a call answered: an output with an `items` array (and usually a `nextCursor`). */
export interface AnsweredPage {
  readonly operationId: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly output: { readonly items: readonly unknown[] };
}

/** The page of an answered call, or null when the output is not a page of items. */
export function asPage(operationId: string, input: unknown, output: unknown): AnsweredPage | null {
  if (typeof output !== 'object' || output === null || !('nextCursor' in output)) return null;
  const items = (output as { items?: unknown }).items;
  if (!Array.isArray(items)) return null;
  const base = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
  return { operationId, input: base as Record<string, unknown>, output: { ...output, items } };
}

function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let here = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/**
 * The resume point of a cut preview, or null when there is no true one.
 *
 * @example
 * findResume(registry, ctx, pages, previewValue, cut); // { operationId, input: { ...input, cursor } }
 */
export function findResume(
  registry: OperationRegistry,
  ctx: AgentContext,
  pages: readonly AnsweredPage[],
  preview: unknown,
  cut: ResultCut,
): ResumeHint | null {
  const only = cut.at.length === 1 && cut.characters === 0 && cut.keys === 0 ? cut.at[0] : undefined;
  if (only === undefined || only.unit !== 'items' || only.kept === 0) return null;
  const kept = at(preview, only.pointer);
  if (!Array.isArray(kept) || kept.length !== only.kept) return null;
  const last = JSON.stringify(kept[kept.length - 1]);
  // The latest page holding it: an export that re-read a page still resumes after its last reading.
  for (let p = pages.length - 1; p >= 0; p--) {
    const page = pages[p];
    if (page === undefined) continue;
    const index = page.output.items.findIndex((item) => JSON.stringify(item) === last);
    if (index < 0) continue;
    const cursor = registry.resumeAfter?.(ctx, page.operationId, page.input, page.output, index) ?? null;
    if (cursor === null) return null;
    return { operationId: page.operationId, input: { ...page.input, cursor } };
  }
  return null;
}
