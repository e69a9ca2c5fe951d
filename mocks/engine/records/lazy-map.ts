/**
 * A Map some of whose values are built on first read. A start-up that serves one organization then
 * pays for that organization's data only, while every reader of the map (`get`, `has`, `size`,
 * iteration, spreading, `new Map(lazy)`) sees what an eagerly built map would hold, in the same order:
 * a pending key holds its place from the start, and building it replaces its value where it stands.
 * Iterating builds every pending value first (an export, a reset, a data file that lists every
 * organization need them all).
 */

const PENDING: unique symbol = Symbol('pending');

export class LazyMap<K, V> extends Map<K, V> {
  readonly #builders = new Map<K, () => V>();

  /** `pending` in order: each key's value is `build()` at the first read of that key. */
  constructor(pending: Iterable<readonly [K, () => V]>) {
    super();
    for (const [key, build] of pending) {
      this.#builders.set(key, build);
      super.set(key, PENDING as V);
    }
  }

  /** Keys whose value has not been built yet. */
  get pendingCount(): number {
    return this.#builders.size;
  }

  override get(key: K): V | undefined {
    const value = super.get(key);
    if (value !== (PENDING as V)) return value;
    const build = this.#builders.get(key);
    if (build === undefined) return undefined;
    const built = build();
    this.#builders.delete(key);
    super.set(key, built);
    return built;
  }

  override set(key: K, value: V): this {
    this.#builders.delete(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.#builders.delete(key);
    return super.delete(key);
  }

  override clear(): void {
    this.#builders.clear();
    super.clear();
  }

  #buildAll(): void {
    for (const key of [...this.#builders.keys()]) this.get(key);
  }

  override entries(): MapIterator<[K, V]> {
    this.#buildAll();
    return super.entries();
  }

  override values(): MapIterator<V> {
    this.#buildAll();
    return super.values();
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    this.#buildAll();
    super.forEach(callback, thisArg);
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
