/**
 * Reference resolution as ajv does it: ids normalised without a trailing `#`, a `$ref` resolved against
 * its document's base id (relative URLs through `URL`, ids looked up as given), then a JSON pointer
 * followed into the document; a target that is nothing but a `$ref` is followed on (at most 32 deep).
 */
import { isObj } from './keywords.ts';
import type { Doc, Obj, Target } from './types.ts';

/** The registered documents, and whether a schema has rules besides a keyword (the compiler). */
export interface Registry {
  readonly docs: ReadonlyMap<string, Doc>;
  hasRules(s: Obj, except?: string): boolean;
}

export const normalizeId = (id: string) => id.replace(/#\/?$/, '');
const unescapeFragment = (s: string) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');

const REF_KEYWORDS = new Set(['$ref', '$recursiveRef', '$recursiveAnchor', '$dynamicRef', '$dynamicAnchor']);

/** Whether a schema holds a reference anywhere (else a `$ref` to it is inlined). */
export function hasRef(s: unknown): boolean {
  if (typeof s !== 'object' || s === null) return false;
  for (const [k, v] of Object.entries(s)) if (REF_KEYWORDS.has(k) || hasRef(v)) return true;
  return false;
}

/** A JSON pointer fragment of a document, following a target that is only a `$ref` (as ajv). */
export function pointer(r: Registry, doc: Doc, frag: string, depth = 0): Target | undefined {
  if (frag === '' || frag === '/') return { doc, frag: '', schema: doc.schema };
  if (!frag.startsWith('/')) return undefined;
  let schema: unknown = doc.schema;
  for (const part of frag.slice(1).split('/')) {
    if (!isObj(schema) && !Array.isArray(schema)) return undefined;
    schema = (schema as Obj)[unescapeFragment(part)];
    if (schema === undefined) return undefined;
  }
  if (isObj(schema) && typeof schema['$ref'] === 'string' && !r.hasRules(schema, '$ref') && depth < 32)
    return resolve(r, schema['$ref'], doc, depth + 1);
  return { doc, frag, schema };
}

export function resolve(r: Registry, ref: string, doc: Doc, depth = 0): Target {
  let full = ref;
  // As ajv, a reference is normalised as a URI (non-ASCII percent-encoded) but ids are looked up as given.
  if (ref.startsWith('#')) full = `${doc.baseId}${ref}`;
  else full = relativeUrl(ref, doc.baseId);
  full = normalizeId(full);
  const hash = full.indexOf('#');
  const id = hash < 0 ? full : full.slice(0, hash);
  const target = id === doc.baseId ? doc : r.docs.get(id);
  const found = target && pointer(r, target, hash < 0 ? '' : full.slice(hash + 1), depth);
  if (found === undefined) throw new Error(`can't resolve reference ${ref} from id ${doc.baseId}`);
  return found;
}

function relativeUrl(ref: string, base: string): string {
  try {
    return new URL(ref, base || undefined).href;
  } catch {
    return ref;
  }
}
