/**
 * Hides key values in text an observer shows (the journal, the violation log): every key the engine
 * knows and every key a client presented in a secret header, wherever it appears (a path, a query
 * string, a body, a header). One function, so what one observer hides the other hides too.
 */

export const MASKED = '[masked]';

/** Shorter strings are not searched for (a key is far longer; too many false matches). */
export const MIN_SECRET_LENGTH = 8;
/** Presented key values remembered for masking (an attacker sending random keys cannot grow it). */
const MAX_PRESENTED = 256;

export interface SecretMask {
  /** Remembers a presented key, or the token of a `Bearer <token>` header value. */
  rememberHeaderValue(value: string): void;
  /** Every secret to hide now, longest first (a key inside another is masked whole). */
  secrets(): string[];
  /** `text` with every one of `known` replaced by `[masked]`. */
  mask(text: string, known: readonly string[]): string;
}

/**
 * @example
 * const mask = createSecretMask(() => host.state.keys.byKey.keys());
 * mask.mask('/v0/agents?apiKey=cca_live_...', mask.secrets()); // '/v0/agents?apiKey=[masked]'
 */
export function createSecretMask(knownKeys: () => Iterable<string>): SecretMask {
  const presented = new Set<string>();
  const remember = (key: string): void => {
    if (key.length < MIN_SECRET_LENGTH || presented.has(key)) return;
    if (presented.size >= MAX_PRESENTED) {
      const oldest = presented.values().next().value;
      if (oldest !== undefined) presented.delete(oldest);
    }
    presented.add(key);
  };
  return {
    rememberHeaderValue(value) {
      const scheme = /^(\S+)\s+(\S+)$/.exec(value);
      remember(scheme?.[2] ?? value);
    },
    secrets() {
      const all = new Set(presented);
      for (const key of knownKeys()) all.add(key);
      return [...all].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
    },
    mask(text, known) {
      let out = text;
      for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(MASKED);
      return out;
    },
  };
}
