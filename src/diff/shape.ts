/**
 * The shape of a JSON body: for every path (array items folded into `[]`), the kinds of value seen there.
 * Two deployments hold different data, so `cca-kit diff` compares shapes, never values: which keys are
 * present, which types, whether null appears, whether arrays are empty.
 */

export type ValueKind = 'null' | 'boolean' | 'number' | 'string' | 'object' | 'array' | 'empty-array';

/** Path (`$.data[].tags[].value`) to the kinds seen there, over every element of every array. */
export type Shape = ReadonlyMap<string, ReadonlySet<ValueKind>>;

/** Bounds the walk of untrusted bodies. */
const MAX_NODES = 200_000;
const MAX_DEPTH = 64;

function kindOf(value: unknown): ValueKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'empty-array' : 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    default:
      return 'object';
  }
}

function keyPath(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

export function shapeOf(body: unknown): Shape {
  const shape = new Map<string, Set<ValueKind>>();
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '$', depth: 0 }];
  let nodes = 0;
  while (stack.length > 0 && nodes < MAX_NODES) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    nodes += 1;
    const kind = kindOf(value);
    const kinds = shape.get(path) ?? new Set<ValueKind>();
    kinds.add(kind);
    shape.set(path, kinds);
    if (depth >= MAX_DEPTH) continue;
    if (Array.isArray(value))
      for (const item of value) stack.push({ value: item, path: `${path}[]`, depth: depth + 1 });
    else if (kind === 'object')
      for (const [key, child] of Object.entries(value as Record<string, unknown>))
        stack.push({ value: child, path: keyPath(path, key), depth: depth + 1 });
  }
  return shape;
}

/** Both shapes merged: the kinds seen at each path in either. */
export function mergeShapes(a: Shape, b: Shape): Shape {
  const out = new Map<string, Set<ValueKind>>();
  for (const s of [a, b])
    for (const [path, kinds] of s) out.set(path, new Set([...(out.get(path) ?? []), ...kinds]));
  return out;
}

export type ShapeDifferenceKind = 'mock-only' | 'live-only' | 'mismatch';

export interface ShapeDifference {
  readonly kind: ShapeDifferenceKind;
  /** What differs: a key present on one side only, the types, null on one side only, empty arrays on one side only. */
  readonly aspect: 'presence' | 'type' | 'nullability' | 'emptiness';
  readonly path: string;
  readonly detail: string;
}

const describe = (kinds: ReadonlySet<ValueKind> | undefined): string => [...(kinds ?? [])].sort().join('|');

/** A path below a parent that one side never had as a non-empty container: its absence says nothing. */
function parentSeenOnBoth(path: string, mock: Shape, live: Shape): boolean {
  const parent = path.endsWith('[]')
    ? path.slice(0, -2)
    : path.replace(/(\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\])$/, '');
  if (parent === path || parent === '') return true;
  const open = (s: Shape) => {
    const kinds = s.get(parent);
    return kinds !== undefined && (kinds.has('object') || kinds.has('array'));
  };
  return open(mock) && open(live);
}

/**
 * Structural differences from the mock's shape to the live one. `ignored(path)` skips a path and
 * everything under it (the ignore list, and what varies by itself on live).
 */
export function compareShapes(
  mock: Shape,
  live: Shape,
  ignored: (path: string) => boolean,
): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  const paths = [...new Set([...mock.keys(), ...live.keys()])].sort();
  for (const path of paths) {
    if (ignored(path)) continue;
    const m = mock.get(path);
    const l = live.get(path);
    if (m === undefined || l === undefined) {
      if (!parentSeenOnBoth(path, mock, live)) continue;
      out.push(
        m === undefined
          ? { kind: 'live-only', aspect: 'presence', path, detail: `only live has ${path} (${describe(l)})` }
          : {
              kind: 'mock-only',
              aspect: 'presence',
              path,
              detail: `only the mock has ${path} (${describe(m)})`,
            },
      );
      continue;
    }
    const solid = (k: ReadonlySet<ValueKind>) =>
      new Set([...k].filter((x) => x !== 'null').map((x) => (x === 'empty-array' ? 'array' : x)));
    const ms = solid(m);
    const ls = solid(l);
    const typesDisjoint = ms.size > 0 && ls.size > 0 && [...ms].every((x) => !ls.has(x));
    const nullOnlyOneSide = m.has('null') !== l.has('null');
    const emptyOnlyOneSide =
      (m.has('empty-array') && !m.has('array') && l.has('array')) ||
      (l.has('empty-array') && !l.has('array') && m.has('array'));
    if (typesDisjoint || nullOnlyOneSide || emptyOnlyOneSide) {
      const aspect = typesDisjoint ? 'type' : nullOnlyOneSide ? 'nullability' : 'emptiness';
      const what = aspect === 'emptiness' ? 'array emptiness' : aspect;
      out.push({
        kind: 'mismatch',
        aspect,
        path,
        detail: `${what} differs at ${path}: mock ${describe(m)}, live ${describe(l)}`,
      });
    }
  }
  return out;
}
