/**
 * The playbooks, loaded once from `playbooks/<name>/`: a manifest (`skill.json`: name, title, summary,
 * the files it lists), the playbook text (`SKILL.md`) and the listed files, all read into memory at
 * load. Serving a file is then a lookup among the files the playbook lists: no request path ever
 * reaches the file system, so traversal, symlinks and another skill's files cannot be served at all.
 * A malformed playbook (unlisted kind, a symlink, a file over the size bound) fails the load: it is a
 * build error, not something a client meets.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type SkillFileKind = 'script' | 'note';

export interface SkillFile {
  readonly path: string;
  readonly kind: SkillFileKind;
  readonly description: string;
  readonly mediaType: 'text/javascript' | 'text/markdown';
  readonly text: string;
}

export interface Skill {
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  /** SKILL.md. */
  readonly text: string;
  readonly files: readonly SkillFile[];
  /** What a key needs to carry the playbook out: these tools listed and these scopes. */
  readonly needs: { readonly tools: readonly string[]; readonly scopes: readonly string[] };
}

/** Bounds on what a playbook may hold (what a read answers at most). */
export const SKILL_FILE_MAX_BYTES = 64 * 1024;
export const SKILL_FILES_MAX = 20;
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** A listed file: `scripts/<name>.js` or `notes/<name>.md`, nothing else. */
export const LISTED_PATH = /^(scripts\/[a-z0-9][a-z0-9-]*\.js|notes\/[a-z0-9][a-z0-9-]*\.md)$/;

/**
 * Where the playbooks are: beside this module when it runs from the sources, or the package's
 * `mocks/agent/skills/playbooks/` when it runs compiled from `dist/mocks/agent/skills/` (tsc does not
 * copy data files; the package ships `mocks/`).
 */
export function defaultPlaybooksRoot(): string {
  const candidates = [
    new URL('./playbooks/', import.meta.url),
    new URL('../../../../mocks/agent/skills/playbooks/', import.meta.url),
  ];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  throw new Error(
    `cca-kit: the skill playbooks are missing (looked in ${candidates.map((c) => fileURLToPath(c)).join(', ')})`,
  );
}

class PlaybookError extends Error {
  readonly code = 'SKILL_PLAYBOOK_INVALID';
  constructor(where: string, message: string) {
    super(`playbook ${where}: ${message}`);
    this.name = 'PlaybookError';
  }
}

function readBounded(path: string, where: string): string {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) throw new PlaybookError(where, 'is a symbolic link (refused)');
  if (!stat.isFile()) throw new PlaybookError(where, 'is not a file');
  if (stat.size > SKILL_FILE_MAX_BYTES)
    throw new PlaybookError(where, `is ${stat.size} bytes, more than ${SKILL_FILE_MAX_BYTES}`);
  return readFileSync(path, 'utf8');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function loadSkill(root: string, name: string): Skill {
  const dir = `${root.endsWith('/') ? root : `${root}/`}${name}/`;
  const manifest: unknown = JSON.parse(readBounded(`${dir}skill.json`, `${name}/skill.json`));
  if (!isObject(manifest)) throw new PlaybookError(name, 'skill.json is not an object');
  const { title, summary, files, needs } = manifest;
  if (manifest['name'] !== name)
    throw new PlaybookError(name, 'skill.json name differs from the folder name');
  if (
    typeof title !== 'string' ||
    typeof summary !== 'string' ||
    !Array.isArray(files) ||
    files.length > SKILL_FILES_MAX
  )
    throw new PlaybookError(name, 'skill.json needs title, summary and files (at most 20)');
  const listed = files.map((entry: unknown): SkillFile => {
    if (!isObject(entry) || typeof entry['path'] !== 'string' || typeof entry['description'] !== 'string')
      throw new PlaybookError(name, 'each file needs path and description');
    const path = entry['path'];
    if (!LISTED_PATH.test(path))
      throw new PlaybookError(name, `listed path ${path} is not scripts/<x>.js or notes/<x>.md`);
    const kind: SkillFileKind = path.startsWith('scripts/') ? 'script' : 'note';
    if (entry['kind'] !== kind) throw new PlaybookError(name, `${path} must have kind ${kind}`);
    return {
      path,
      kind,
      description: entry['description'],
      mediaType: kind === 'script' ? 'text/javascript' : 'text/markdown',
      text: readBounded(`${dir}${path}`, `${name}/${path}`),
    };
  });
  const wanted = (list: unknown): string[] =>
    Array.isArray(list) && list.every((x): x is string => typeof x === 'string') ? [...list] : [];
  const need = typeof needs === 'object' && needs !== null ? (needs as Record<string, unknown>) : {};
  return {
    name,
    title,
    summary,
    text: readBounded(`${dir}SKILL.md`, `${name}/SKILL.md`),
    files: listed,
    needs: { tools: wanted(need['tools']), scopes: wanted(need['scopes']) },
  };
}

/** Loads every playbook under `root`, sorted by name. Throws a `PlaybookError` on a malformed one. */
export function loadSkills(root: string = defaultPlaybooksRoot()): readonly Skill[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && SKILL_NAME.test(entry.name))
    .map((entry) => loadSkill(root, entry.name))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
