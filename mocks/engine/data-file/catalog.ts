/**
 * An organization of a data file as the engine's catalog (agents, queues, tags, custom-field
 * registry). Merging keeps every existing entry at its index (rows refer to entries by index) and
 * lets the file win on an id clash: the entry with the same id is replaced in place, new ones are
 * appended.
 */
import type { CustomFieldDefinition, OrgCatalog } from '../../../fixtures/generate/types.ts';
import type { Organization } from '../types.ts';
import type { DataFileOrganization } from './types.ts';

function mergeById<T>(base: readonly T[], added: readonly T[] | undefined, id: (item: T) => string): T[] {
  const out = [...base];
  for (const item of added ?? []) {
    const at = out.findIndex((existing) => id(existing) === id(item));
    if (at >= 0) out[at] = item;
    else out.push(item);
  }
  return out;
}

/** A short upper-case code for readable case ids (`ACME-1042`), from the organization id. */
function codeOf(id: string): string {
  return (
    id
      .replace(/^org_/, '')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 4)
      .toUpperCase() || 'ORG'
  );
}

/** The catalog of an organization nobody has described yet. */
export function emptyCatalog(id: string): OrgCatalog {
  return {
    organization: { id, name: id, moderationMode: 'standard' },
    code: codeOf(id),
    idPrefix: '1999',
    padDigit: '9',
    slug: id.replace(/[^A-Za-z0-9]/g, ''),
    domain: 'example.com',
    brand: id,
    platforms: [],
    agents: [],
    queues: [],
    tags: [],
    closingTags: [],
    customFields: [],
    customerPool: 1,
  };
}

/** `base` (or an empty catalog) with the file's organization merged in; the file wins on an id clash. */
export function mergeCatalog(base: OrgCatalog | undefined, org: DataFileOrganization): OrgCatalog {
  const start = base ?? emptyCatalog(org.id);
  const organization: Organization = {
    id: org.id,
    name: org.name ?? start.organization.name,
    moderationMode: org.moderationMode ?? start.organization.moderationMode,
  };
  const fields: CustomFieldDefinition[] = (org.customFields ?? []).map((f) => ({
    name: f.name,
    displayName: f.displayName,
    type: f.type,
    ...(f.options === undefined ? {} : { options: [...f.options] }),
  }));
  return {
    ...start,
    organization,
    brand: base === undefined ? organization.name : start.brand,
    agents: mergeById(start.agents, org.agents, (a) => a.userId),
    queues: mergeById(start.queues, org.queues, (q) => q.id),
    tags: mergeById(start.tags, org.tags, (t) => t.id),
    closingTags: mergeById(start.closingTags, org.closingTags, (t) => t.id),
    customFields: mergeById(start.customFields, fields, (f) => f.name),
  };
}
