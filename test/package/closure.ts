/**
 * What an installed package costs on disk: the package and the closure of its dependencies (and the peers
 * npm installs for them), as npm laid them out in a project's node_modules, nested copies included.
 * Shared by the lean package test and the package-size benchmark.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

interface Manifest {
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
  readonly scripts?: Readonly<Record<string, string>>;
}

export interface InstalledPackage {
  /** The package name. */
  readonly name: string;
  /** Its folder, relative to the project (`node_modules/ajv`, `node_modules/x/node_modules/y`). */
  readonly path: string;
  readonly bytes: number;
  /** Whether it declares a script npm runs on install (preinstall, install, postinstall). */
  readonly installScript: boolean;
}

/** Bytes of every file under a folder. */
export function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** Where node finds `name` from a package folder: its own node_modules, then each parent's. */
function locate(project: string, from: string, name: string): string | undefined {
  for (let dir = from; dir.startsWith(project); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === project) break;
  }
  return undefined;
}

/**
 * The installed closure of `root` in `project`, largest first. `exclude` names packages left out with
 * everything only they bring (the user's own msw, for instance).
 */
export function installedClosure(
  project: string,
  root: string,
  exclude: readonly string[] = [],
): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const pending: [string, string][] = [[root, project]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [name, from] = next;
    if (exclude.includes(name)) continue;
    const dir = locate(project, from, name);
    if (dir === undefined || found.has(dir)) continue; // an optional dependency of another platform
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const scripts = manifest.scripts ?? {};
    found.set(dir, {
      name,
      path: relative(project, dir).split(sep).join('/'),
      bytes: sizeOf(dir),
      installScript: ['preinstall', 'install', 'postinstall'].some((hook) => scripts[hook] !== undefined),
    });
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (peer) => manifest.peerDependenciesMeta?.[peer]?.optional !== true,
    );
    for (const dependency of [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...peers,
    ]) {
      pending.push([dependency, dir]);
    }
  }
  return [...found.values()].sort((a, b) => b.bytes - a.bytes);
}
