/**
 * What is scrubbed from a recording before anything is written: API keys (`X-API-Key`,
 * `Authorization`), cookies, and personal data in JSON bodies: customer names, handles, emails and
 * ids (records, messages of USER authors, ingestion records), free text unless kept, and any value
 * at the JSON paths a user adds. Every value scrubbed is remembered, so that other strings that
 * contain it (URLs, `contributors`, kept text) get the same pseudonym, and the written file can be
 * checked for leftovers.
 */
import { type JsonPath, locate, parseJsonPath, readAt, writeAt } from './json-path.ts';
import { type PseudonymKind, Pseudonyms } from './pseudonym.ts';

export interface ScrubRules {
  /** Values (identifiers, names, handles) replaced by shape-keeping pseudonyms. */
  readonly values: readonly string[];
  readonly emails: readonly string[];
  /** Free text, replaced by `[text 1a2b3c4d]` unless `keepText`. */
  readonly text: readonly string[];
  readonly keepText: boolean;
}

export const DEFAULT_SCRUB_RULES: ScrubRules = {
  // Summary items (list, search) and the detail's `user`; `assignee` ids are agents, not customers.
  values: [
    '$.data[*].userName',
    '$.data[*].userUsername',
    '$.data[*].userId',
    '$..user.name',
    '$..user.username',
    '$..user.userId',
    '$..records[*].authorId',
    '$..records[*].authorName',
  ],
  emails: ['$.data[*].userEmail', '$..user.email'],
  text: [
    '$..actionTitle',
    '$..actionSummary',
    '$..rootMessageText',
    '$..csatFeedback',
    '$..comments[*].text',
    '$..messages[*].message',
    '$..conversation[*].message',
    '$..records[*].body',
    '$..records[*].title',
  ],
  keepText: false,
};

/** Shorter values are not searched for inside other strings (too many false matches). */
export const MIN_EMBEDDED_LENGTH = 4;

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization']);
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Scrubber {
  readonly pseudonyms: Pseudonyms;
  /** Every API key value seen (raw header values and bearer tokens). */
  readonly keysSeen = new Set<string>();
  readonly #rules: { readonly kind: PseudonymKind; readonly path: JsonPath }[];
  readonly #keepText: boolean;

  constructor(rules: ScrubRules = DEFAULT_SCRUB_RULES, pseudonyms = new Pseudonyms()) {
    this.pseudonyms = pseudonyms;
    this.#keepText = rules.keepText;
    this.#rules = [
      ...rules.values.map((p) => ({ kind: 'value' as const, path: parseJsonPath(p) })),
      ...rules.emails.map((p) => ({ kind: 'email' as const, path: parseJsonPath(p) })),
      ...(rules.keepText ? [] : rules.text.map((p) => ({ kind: 'text' as const, path: parseJsonPath(p) }))),
    ];
  }

  /** Headers with keys pseudonymised (the same key, the same pseudonym) and cookies removed. */
  headers(pairs: readonly (readonly [string, string])[]): [string, string][] {
    return pairs.map(([name, value]) => {
      const lower = name.toLowerCase();
      if (SECRET_HEADERS.has(lower)) {
        this.keysSeen.add(value);
        const bearer = /^(\S+)\s+(.+)$/.exec(value);
        if (bearer !== null && lower !== 'x-api-key') {
          this.keysSeen.add(bearer[2] ?? '');
          return [name, `${bearer[1]} ${this.pseudonyms.of(bearer[2] ?? '', 'key')}`];
        }
        return [name, this.pseudonyms.of(value, 'key')];
      }
      if (COOKIE_HEADERS.has(lower)) {
        for (const part of value.split(/;\s*/)) {
          const cookie = part.slice(part.indexOf('=') + 1);
          if (cookie.length >= MIN_EMBEDDED_LENGTH) this.keysSeen.add(cookie);
        }
        return [name, '[scrubbed]'];
      }
      return [name, value];
    });
  }

  /** A JSON body scrubbed by the rules (and `conversationJson` inside it); other text as it is, embedded values replaced. */
  body(text: string, contentType: string | null): string {
    if (!/json/i.test(contentType ?? '') && !/^\s*[[{]/.test(text)) return this.embedded(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.embedded(text);
    }
    return JSON.stringify(this.value(value));
  }

  /** Scrubs a parsed JSON value in place and returns it. */
  value(root: unknown): unknown {
    for (const nested of locate(root, parseJsonPath('$..conversationJson'))) {
      const inner = readAt(nested);
      if (typeof inner === 'string') {
        try {
          writeAt(nested, JSON.stringify(this.value(JSON.parse(inner))));
        } catch {
          writeAt(nested, this.embedded(inner));
        }
      }
    }
    this.#userAuthors(root);
    for (const rule of this.#rules) {
      for (const location of locate(root, rule.path)) {
        const current = readAt(location);
        if (typeof current === 'string' && current !== '')
          writeAt(location, this.pseudonyms.of(current, rule.kind));
      }
    }
    return this.#embeddedEverywhere(root);
  }

  /** Authors of customer messages are customers: their names and ids are personal data. */
  #userAuthors(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.#userAuthors(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (record['authorType'] === 'USER') {
      for (const field of ['author', 'authorId'] as const) {
        const v = record[field];
        if (typeof v === 'string' && v !== '') record[field] = this.pseudonyms.of(v);
      }
    }
    for (const child of Object.values(record)) this.#userAuthors(child);
  }

  /**
   * Every string in `value` (a HAR entry, say) with the values scrubbed so far replaced: run over the
   * whole recording before writing, so an early request that named a customer only a later answer
   * revealed is scrubbed too. Mutates and returns `value`.
   */
  everywhere<T>(value: T): T {
    return this.#embeddedEverywhere(value) as T;
  }

  #embeddedEverywhere(value: unknown): unknown {
    if (typeof value === 'string') return this.embedded(value);
    if (Array.isArray(value)) return value.map((item) => this.#embeddedEverywhere(item));
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.#embeddedEverywhere(record[key]);
    }
    return value;
  }

  #pattern: { size: number; regex: RegExp | null } = { size: -1, regex: null };

  /**
   * A string with every scrubbed value (and key) it contains replaced by its pseudonym. A value counts
   * only as a whole token (not next to a letter or digit), so `1234` inside the id `12345` is left.
   */
  embedded(raw: string): string {
    const map = this.pseudonyms.byOriginal;
    // A key is a secret wherever it sits, even glued to other characters.
    let text = raw;
    for (const key of [...this.keysSeen].sort((x, y) => y.length - x.length))
      if (key.length >= MIN_EMBEDDED_LENGTH && text.includes(key))
        text = text.split(key).join(map.get(key) ?? this.pseudonyms.of(key, 'key'));
    const secrets = [...map.keys(), ...this.keysSeen].filter((s) => s.length >= MIN_EMBEDDED_LENGTH);
    if (secrets.length === 0) return text;
    if (this.#pattern.size !== secrets.length) {
      const alternatives = [...new Set(secrets)].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.#pattern = {
        size: secrets.length,
        regex: new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'gu'),
      };
    }
    const regex = this.#pattern.regex;
    if (regex === null) return text;
    return text.replace(regex, (found) => map.get(found) ?? this.pseudonyms.of(found, 'key'));
  }

  /** Scrubbed originals a written recording must not contain as whole tokens. */
  secrets(): string[] {
    return [...this.pseudonyms.byOriginal.keys()].filter((s) => s.length >= MIN_EMBEDDED_LENGTH);
  }

  /** Key and cookie values a written recording must not contain anywhere. */
  keys(): string[] {
    return [...this.keysSeen].filter((s) => s.length >= MIN_EMBEDDED_LENGTH);
  }

  get keepsText(): boolean {
    return this.#keepText;
  }
}
