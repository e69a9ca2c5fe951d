/**
 * A small JSON path subset for scrub rules: `$`, `.name`, `..name` (any depth), `[*]` / `.*` (every
 * item or property) and `[0]`. Enough to name where personal data sits in a body; no filters.
 */

type Step =
  | { readonly kind: 'child'; readonly name: string }
  | { readonly kind: 'descendant'; readonly name: string }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'index'; readonly index: number };

export interface JsonPath {
  readonly source: string;
  readonly steps: readonly Step[];
}

const STEP = /^(?:\.\.([A-Za-z_$][\w$-]*|\*)|\.([A-Za-z_$][\w$-]*|\*)|\[\*\]|\[(\d+)\]|\['([^']+)'\])/;

/** Parses a path; throws a RangeError naming the path and the position that is not understood. */
export function parseJsonPath(source: string): JsonPath {
  if (!source.startsWith('$')) throw new RangeError(`JSON path ${JSON.stringify(source)} must start with $`);
  const steps: Step[] = [];
  let rest = source.slice(1);
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (m === null)
      throw new RangeError(`JSON path ${JSON.stringify(source)}: cannot read ${JSON.stringify(rest)}`);
    if (m[1] !== undefined) steps.push({ kind: 'descendant', name: m[1] });
    else if (m[2] !== undefined)
      steps.push(m[2] === '*' ? { kind: 'wildcard' } : { kind: 'child', name: m[2] });
    else if (m[3] !== undefined) steps.push({ kind: 'index', index: Number.parseInt(m[3], 10) });
    else if (m[4] !== undefined) steps.push({ kind: 'child', name: m[4] });
    else steps.push({ kind: 'wildcard' });
    rest = rest.slice(m[0].length);
  }
  return { source, steps };
}

/** Where a path matched: the container and the key, so the value can be replaced in place. */
export interface Location {
  readonly parent: Record<string, unknown> | unknown[];
  readonly key: string | number;
}

function children(value: unknown): Location[] {
  if (Array.isArray(value)) return value.map((_, index) => ({ parent: value, key: index }));
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return Object.keys(record).map((key) => ({ parent: record, key }));
  }
  return [];
}

const valueAt = (location: Location): unknown =>
  Array.isArray(location.parent)
    ? location.parent[location.key as number]
    : (location.parent as Record<string, unknown>)[location.key as string];

function descendants(value: unknown, name: string, out: Location[]): void {
  for (const child of children(value)) {
    if (name === '*' || child.key === name) out.push(child);
    descendants(valueAt(child), name, out);
  }
}

/** Every location `path` names in `root`. */
export function locate(root: unknown, path: JsonPath): Location[] {
  let current: unknown[] = [root];
  let found: Location[] = [];
  for (const step of path.steps) {
    found = [];
    for (const value of current) {
      if (step.kind === 'descendant') descendants(value, step.name, found);
      else if (step.kind === 'wildcard') found.push(...children(value));
      else
        for (const child of children(value))
          if (child.key === (step.kind === 'child' ? step.name : step.index)) found.push(child);
    }
    current = found.map(valueAt);
  }
  return found;
}

export function readAt(location: Location): unknown {
  return valueAt(location);
}

export function writeAt(location: Location, value: unknown): void {
  if (Array.isArray(location.parent)) location.parent[location.key as number] = value;
  else (location.parent as Record<string, unknown>)[location.key as string] = value;
}
