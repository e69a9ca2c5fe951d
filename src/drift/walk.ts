/** Reading a node of an OpenAPI document along a path of the diff library, following local `$ref`s. */

export type JsonKey = string | number;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Bounds `$ref` chains, so a document whose refs loop cannot hang the walk. */
const MAX_REF_HOPS = 64;

function pointerKey(segment: string): string {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The target of a local `$ref` (`#/a/b`), or undefined when it is not local or does not resolve. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(1).split('/').slice(1)) {
    const key = pointerKey(segment);
    if (Array.isArray(node)) node = node[Number.parseInt(key, 10)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** The node itself, or what its `$ref` chain points at. */
export function deref(root: unknown, node: unknown): unknown {
  let current = node;
  for (let hop = 0; hop < MAX_REF_HOPS; hop += 1) {
    if (!isRecord(current) || typeof current['$ref'] !== 'string') return current;
    current = resolvePointer(root, current['$ref']);
  }
  return undefined;
}

/** The node at `path` in `root`, each step through `$ref`s; undefined when the path leaves the document. */
export function nodeAt(root: unknown, path: readonly JsonKey[]): unknown {
  let node: unknown = deref(root, root);
  for (const key of path) {
    if (Array.isArray(node) && typeof key === 'number') node = deref(root, node[key]);
    else if (isRecord(node) && Object.hasOwn(node, String(key))) node = deref(root, node[String(key)]);
    else return undefined;
  }
  return node;
}

/** Every local `$ref` in a document that does not resolve, with where it is (first `limit` of them). */
export function danglingRefs(root: unknown, limit = 5): string[] {
  const found: string[] = [];
  const stack: { node: unknown; at: string }[] = [{ node: root, at: '#' }];
  let visited = 0;
  while (stack.length > 0 && found.length < limit && visited < 1_000_000) {
    const { node, at } = stack.pop() as { node: unknown; at: string };
    visited += 1;
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) stack.push({ node: child, at: `${at}/${i}` });
    } else if (isRecord(node)) {
      const ref = node['$ref'];
      if (typeof ref === 'string' && ref.startsWith('#') && resolvePointer(root, ref) === undefined)
        found.push(`${at}: $ref ${ref}`);
      for (const [key, child] of Object.entries(node)) stack.push({ node: child, at: `${at}/${key}` });
    }
  }
  return found;
}
