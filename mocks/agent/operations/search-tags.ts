/**
 * `query.search.tags {name}`: the organization's tags whose value or group contains `name`
 * (case-insensitive; "" matches all), with the number of the organization's actions carrying each
 * and how many of those were responded to, most used first (ties: tagId ascending).
 */
import { orgData } from '../../engine/records/state.ts';
import { type AgentContext, type Outcome, succeed } from '../types.ts';
import { TAGS_LIMIT_DEFAULT } from './vocabulary.ts';

export interface TagsInput {
  readonly name: string;
  readonly limit?: number;
}

export interface TagHit {
  readonly tagId: string;
  readonly tagName: string;
  readonly groupName: string | null;
  readonly actions: number;
  readonly responded: number;
}

export function searchTags(ctx: AgentContext, input: TagsInput): Outcome<{ items: TagHit[] }> {
  const org = orgData(ctx.engine.state.data, ctx.identity.organizationId);
  const needle = input.name.toLowerCase();
  const wanted = new Map<number, { actions: number; responded: number }>();
  org.catalog.tags.forEach((tag, k) => {
    if (tag.value.toLowerCase().includes(needle) || tag.group.toLowerCase().includes(needle))
      wanted.set(k, { actions: 0, responded: 0 });
  });
  if (wanted.size > 0) {
    const index = org.byCreated;
    for (let pos = 0; pos < index.size; pos++) {
      const row = index.rowAt(pos);
      for (const k of org.table.tagsOf(row)) {
        const counts = wanted.get(k);
        if (counts === undefined) continue;
        counts.actions++;
        if (org.table.responded(row)) counts.responded++;
      }
    }
  }
  const items: TagHit[] = [];
  for (const [k, counts] of wanted) {
    const tag = org.catalog.tags[k];
    if (tag === undefined) continue;
    items.push({ tagId: tag.id, tagName: tag.value, groupName: tag.group, ...counts });
  }
  items.sort((a, b) => b.actions - a.actions || (a.tagId < b.tagId ? -1 : a.tagId > b.tagId ? 1 : 0));
  return succeed({ items: items.slice(0, input.limit ?? TAGS_LIMIT_DEFAULT) });
}
