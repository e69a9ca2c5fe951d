/**
 * A window index: the rows of one organization sorted by a time column (ascending, read backwards
 * for newest first), with a prefix count of responded rows so that the responded total of any
 * window is two lookups. Finding a window is a binary search; inserting keeps the order (a shift of
 * the typed arrays, cheap when new rows are recent, which ingested ones are).
 */

export type TieBreak = (a: number, b: number) => number;

export class SortedIndex {
  size = 0;
  rows: Int32Array;
  keys: Float64Array;
  /** prefix[k] = responded rows among positions [0, k). Length capacity + 1. */
  prefix: Int32Array;

  constructor(capacity = 16) {
    const n = Math.max(1, capacity);
    this.rows = new Int32Array(n);
    this.keys = new Float64Array(n);
    this.prefix = new Int32Array(n + 1);
  }

  /**
   * Builds an index over `candidates` (already sorted when `sorted` is true).
   * `tie` orders rows with equal keys (the caller's documented tie rule).
   */
  static build(
    candidates: Int32Array,
    key: (row: number) => number,
    responded: (row: number) => boolean,
    tie: TieBreak,
    sorted: boolean,
  ): SortedIndex {
    const index = new SortedIndex(candidates.length + 16);
    const rows = candidates.slice();
    if (!sorted) rows.sort((a, b) => key(a) - key(b) || tie(a, b));
    index.rows.set(rows);
    index.size = rows.length;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k] ?? 0;
      index.keys[k] = key(row);
      index.prefix[k + 1] = (index.prefix[k] ?? 0) + (responded(row) ? 1 : 0);
    }
    return index;
  }

  /** First position whose key is >= `key`. */
  lowerBound(key: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] ?? 0) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose key is > `key`. */
  upperBound(key: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] ?? 0) <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Responded rows among positions [lo, hi). */
  respondedBetween(lo: number, hi: number): number {
    return (this.prefix[hi] ?? 0) - (this.prefix[lo] ?? 0);
  }

  rowAt(position: number): number {
    return this.rows[position] ?? -1;
  }

  insert(row: number, key: number, responded: boolean, tie: TieBreak): void {
    if (this.size === this.rows.length) this.grow(this.rows.length * 2);
    let pos = this.lowerBound(key);
    while (pos < this.size && this.keys[pos] === key && tie(this.rows[pos] ?? 0, row) < 0) pos++;
    const n = this.size;
    this.rows.copyWithin(pos + 1, pos, n);
    this.keys.copyWithin(pos + 1, pos, n);
    this.prefix.copyWithin(pos + 2, pos + 1, n + 1);
    this.rows[pos] = row;
    this.keys[pos] = key;
    const add = responded ? 1 : 0;
    this.prefix[pos + 1] = (this.prefix[pos] ?? 0) + add;
    if (add === 1) for (let k = pos + 2; k <= n + 1; k++) this.prefix[k] = (this.prefix[k] ?? 0) + 1;
    this.size = n + 1;
  }

  /** Removes `row` (stored under `key`); returns false when it is not there. */
  remove(row: number, key: number): boolean {
    let pos = this.lowerBound(key);
    while (pos < this.size && this.keys[pos] === key && this.rows[pos] !== row) pos++;
    if (pos >= this.size || this.rows[pos] !== row) return false;
    const n = this.size;
    const wasResponded = (this.prefix[pos + 1] ?? 0) - (this.prefix[pos] ?? 0);
    this.rows.copyWithin(pos, pos + 1, n);
    this.keys.copyWithin(pos, pos + 1, n);
    this.prefix.copyWithin(pos + 1, pos + 2, n + 1);
    if (wasResponded === 1) for (let k = pos + 1; k < n; k++) this.prefix[k] = (this.prefix[k] ?? 0) - 1;
    this.size = n - 1;
    return true;
  }

  private grow(capacity: number): void {
    const rows = new Int32Array(capacity);
    rows.set(this.rows);
    const keys = new Float64Array(capacity);
    keys.set(this.keys);
    const prefix = new Int32Array(capacity + 1);
    prefix.set(this.prefix);
    this.rows = rows;
    this.keys = keys;
    this.prefix = prefix;
  }
}
