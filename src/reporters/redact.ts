/** Keys never reach a report: every configured key value is replaced in every string. */

export const REDACTED = '[REDACTED]';

/** Replaces each secret occurring in `text`. Secrets shorter than 4 characters are ignored. */
export function redactString(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.replaceAll(secret, REDACTED);
  return out;
}

/** A deep copy of a JSON-like value with every string (keys of objects included) redacted. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactString(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[redactString(k, secrets)] = walk(inner);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
