/**
 * A bounded, oldest-first buffer: the violation log's and the journal's memory. When full, a push drops
 * the oldest entry and counts it, so both stay within their capacity however long the mock runs.
 */

/** A capacity or size option: a positive safe integer, else a `RangeError` naming the option. */
export function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer (got ${value})`);
  return value;
}

/**
 * @example
 * const ring = new Ring<string>(2);
 * ring.push('a'); ring.push('b'); ring.push('c');
 * [...ring]; // ['b', 'c']; ring.dropped === 1
 */
export class Ring<T> {
  readonly capacity: number;
  readonly #slots: (T | undefined)[];
  /** Index of the oldest entry. */
  #head = 0;
  #size = 0;
  #dropped = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#slots = new Array(capacity);
  }

  /** Entries held now. */
  get size(): number {
    return this.#size;
  }

  /** Entries pushed out by newer ones since the start (not those cleared). */
  get dropped(): number {
    return this.#dropped;
  }

  push(entry: T): void {
    if (this.#size < this.capacity) {
      this.#slots[(this.#head + this.#size) % this.capacity] = entry;
      this.#size += 1;
    } else {
      this.#slots[this.#head] = entry;
      this.#head = (this.#head + 1) % this.capacity;
      this.#dropped += 1;
    }
  }

  /** Oldest first. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.#size; i++) {
      const entry = this.#slots[(this.#head + i) % this.capacity];
      if (entry !== undefined) yield entry;
    }
  }

  /** Empties the buffer; returns how many entries it held. */
  clear(): number {
    const cleared = this.#size;
    this.#slots.fill(undefined);
    this.#head = 0;
    this.#size = 0;
    return cleared;
  }
}
