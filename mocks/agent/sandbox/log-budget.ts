/**
 * The console budget of one execution: at most `maxLines` lines and `maxBytes` UTF-8 bytes in all.
 * The line that crosses the byte budget is cut to fit; later lines are dropped and counted.
 */
import type { Truncations } from './envelope.ts';
import { cutUtf8 } from './utf8.ts';

export class LogBudget {
  #lines = 0;
  #bytes = 0;
  #dropped = 0;
  #hit: { limit: number; unit: 'lines' | 'bytes' } | null = null;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  /**
   * The text to keep for one console line (possibly cut), or null when it is dropped. `fullLength` is
   * the line's length before the sandbox cut it to `maxBytes` characters.
   */
  admit(text: string, fullLength: number): string | null {
    if (this.#lines >= this.maxLines) {
      this.#hit ??= { limit: this.maxLines, unit: 'lines' };
      this.#dropped += 1;
      return null;
    }
    const room = this.maxBytes - this.#bytes;
    const size = Buffer.byteLength(text);
    if (size <= room && fullLength <= text.length) {
      this.#lines += 1;
      this.#bytes += size;
      return text;
    }
    this.#hit ??= { limit: this.maxBytes, unit: 'bytes' };
    this.#dropped += 1;
    if (room <= 0) return null;
    const kept = cutUtf8(text, room);
    this.#lines += 1;
    this.#bytes += Buffer.byteLength(kept);
    return kept;
  }

  truncation(): Truncations['logs'] {
    return this.#hit === null ? null : { ...this.#hit, dropped: this.#dropped };
  }
}
