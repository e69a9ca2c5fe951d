/** Small statistics helpers: percentiles over samples, medians and geometric means of ratios. */

/** A growable buffer of float samples (latencies in ms) that sorts once when asked for percentiles. */
export class Samples {
  private values = new Float64Array(1024);
  private length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  get count(): number {
    return this.length;
  }

  /** Percentiles (0..100) of what was pushed, nearest-rank; NaN when empty. */
  percentiles(...ps: readonly number[]): number[] {
    const sorted = this.values.slice(0, this.length).sort();
    return ps.map((p) => percentileOfSorted(sorted, p));
  }
}

export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return percentileOfSorted(sorted, 50);
}

export function geometricMean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

/** `12 345`, `1.23`, `0.045`: figures people can read in a table. */
export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 100) return value.toFixed(0);
  return value.toFixed(digits);
}
