/**
 * Big ids: every identifier the mock serves that is not already hostile to a number parser is replaced
 * by an alias above 2^53 written with leading zeros (`009` and 18 digits), and the alias is mapped back
 * when the client sends it in a path segment or a query value. Ids that already are decimal strings
 * above 2^53 or with leading zeros (many seeded ones are) pass through unchanged.
 *
 * Aliases are derived from the chaos seed and the original id (a hash, not a counter), so the same id
 * always gets the same alias for a given seed, whatever the order of requests; a bidirectional map
 * resolves them and settles the (improbable) collisions.
 */
import { hashString } from '../../../fixtures/generate/prng.ts';
import type { EngineRequest } from '../exchange.ts';

/** Keys whose string values are identifiers (ID-STRING-PRESERVED); `externalId` is the client's own. */
export const ID_FIELDS: ReadonlySet<string> = new Set([
  'actionId',
  'userId',
  'assigneeUserId',
  'agentId',
  'queueId',
  'tagId',
  'caseId',
  'evaluationId',
  'threadId',
  'authorId',
  'authorNativeId',
  'parentMessageId',
  'id',
]);

/** Objects under these keys are organization data (dynamic maps, JSON values), not records: left alone. */
export const OPAQUE_KEYS: ReadonlySet<string> = new Set([
  'customFields',
  'providerMetadata',
  'value',
  'fieldErrors',
  'boundingBox',
]);

const MAX_SAFE = '9007199254740991';

/** A decimal id a double cannot hold: leading zeros, or above 2^53. */
export function isHostileId(id: string): boolean {
  if (!/^\d+$/.test(id)) return false;
  if (id.length > 1 && id.startsWith('0')) return true;
  return id.length > MAX_SAFE.length || (id.length === MAX_SAFE.length && id > MAX_SAFE);
}

const nineDigits = (value: number): string => String(value % 1_000_000_000).padStart(9, '0');

export class IdAliases {
  readonly #seed: string;
  readonly #aliasOf = new Map<string, string>();
  readonly #originalOf = new Map<string, string>();

  constructor(seed: number | string) {
    this.#seed = String(seed);
  }

  get size(): number {
    return this.#aliasOf.size;
  }

  /** The alias served for `id` (created on first use), or `id` itself when it is already hostile. */
  serve(id: string): string {
    if (isHostileId(id)) return id;
    const known = this.#aliasOf.get(id);
    if (known !== undefined) return known;
    for (let attempt = 0; ; attempt++) {
      const salt = `${this.#seed}:${attempt}:${id}`;
      const alias = `009${nineDigits(hashString(`${salt}:a`))}${nineDigits(hashString(`${salt}:b`))}`;
      if (this.#originalOf.has(alias)) continue;
      this.#aliasOf.set(id, alias);
      this.#originalOf.set(alias, id);
      return alias;
    }
  }

  /** The engine's id behind a served alias, or undefined when `alias` is not one. */
  original(alias: string): string | undefined {
    return this.#originalOf.get(alias);
  }

  /** A copy of a JSON value with every id field served as its alias, and how many ids changed. */
  rewriteBody(body: unknown): { body: unknown; rewritten: number } {
    let rewritten = 0;
    const visit = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(visit);
      if (typeof value !== 'object' || value === null) return value;
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) {
        if (OPAQUE_KEYS.has(key)) out[key] = field;
        else if (ID_FIELDS.has(key) && typeof field === 'string') {
          const alias = this.serve(field);
          if (alias !== field) rewritten += 1;
          out[key] = alias;
        } else out[key] = visit(field);
      }
      return out;
    };
    return { body: visit(body), rewritten };
  }

  /**
   * The request with served aliases mapped back in path segments and in query values (also inside
   * comma lists and `key=value+key=value` filters), or undefined when it carries none.
   */
  rewriteRequest(request: EngineRequest): EngineRequest | undefined {
    if (this.#originalOf.size === 0) return undefined;
    const url = new URL(request.url);
    let changed = false;
    const segments = url.pathname.split('/').map((segment) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return segment;
      }
      const original = this.#originalOf.get(decoded);
      if (original === undefined) return segment;
      changed = true;
      return encodeURIComponent(original);
    });
    const query = new URLSearchParams();
    for (const [name, value] of url.searchParams) {
      const mapped = value
        .split(/([,+= ])/)
        .map((token) => this.#originalOf.get(token) ?? token)
        .join('');
      if (mapped !== value) changed = true;
      query.append(name, mapped);
    }
    if (!changed) return undefined;
    url.pathname = segments.join('/');
    url.search = query.toString();
    return { ...request, url };
  }
}
