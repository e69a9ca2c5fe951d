/**
 * The skill tools of the agent interface (spec 4.18): `list_skills`, `read_skill`, `read_skill_file`
 * over the playbooks shipped in `playbooks/`. Their schemas are `contract/agent/skills.json`.
 *
 * @example
 * const [list, read, readFile] = createSkillTools();
 * await readFile.handle(ctx, { name: 'export-actions-window', path: 'scripts/export-page.js' });
 */
import { type AgentKeyProfile, agentContract } from '../../../src/contract/agent.ts';
import type { Choices } from '../../../src/contract/choice-points.ts';
import { skillScriptOut } from '../choices.ts';
import { STATUSES } from '../operations/vocabulary.ts';
import type { AgentContext, AgentTool, Outcome } from '../types.ts';
import { fail, succeed } from '../types.ts';
import { loadSkills, type Skill, type SkillFile } from './library.ts';
import { unsafePathReason } from './paths.ts';

export { defaultPlaybooksRoot, loadSkills, type Skill, type SkillFile } from './library.ts';

export interface SkillToolsOptions {
  /** The folder of playbooks; default the ones shipped with cca-kit. */
  readonly root?: string;
}

const listing = (file: SkillFile) => ({ path: file.path, kind: file.kind, description: file.description });

const summaryOf = (skill: Skill) => ({
  name: skill.name,
  title: skill.title,
  summary: skill.summary,
  files: skill.files.map(listing),
});

const invalid = (field: string, message: string): Outcome<never> =>
  fail({ kind: 'invalid_input', code: 'INVALID_INPUT', field, message });
const missing = (field: string, message: string): Outcome<never> =>
  fail({ kind: 'not_found', code: 'NOT_FOUND', field, message });

/** The skills as plain functions (the tools, and the documentation host, build on these). */
export function createSkillLibrary(options: SkillToolsOptions = {}) {
  const skills = loadSkills(options.root);
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const usable = (skill: Skill, can: SkillReach | undefined): boolean =>
    can === undefined ||
    (skill.needs.tools.every((t) => can.tools.includes(t)) &&
      skill.needs.scopes.every((x) => can.scopes.includes(x)));
  // A key reads exactly the playbooks list_skills lists for it: one it cannot carry out is not there.
  const find = (name: unknown, can: SkillReach | undefined): Outcome<Skill> => {
    if (typeof name !== 'string') return invalid('/name', 'name must be a string');
    const skill = byName.get(name);
    if (skill === undefined || !usable(skill, can)) {
      const listed = skills.filter((s) => usable(s, can)).map((s) => s.name);
      return missing(
        '/name',
        `no skill named ${JSON.stringify(name)} for this key; list_skills lists: ${listed.join(', ') || 'none'}`,
      );
    }
    return succeed(skill);
  };
  return {
    skills,
    /** The playbooks a key can carry out (all of them when no key is given). */
    list: (can?: SkillReach) =>
      succeed({ skills: skills.filter((skill) => usable(skill, can)).map(summaryOf) }),
    /** A playbook the key can carry out (any, when no key is given). */
    read(name: unknown, can?: SkillReach) {
      const found = find(name, can);
      return found.ok ? succeed({ ...summaryOf(found.value), text: found.value.text }) : found;
    },
    /**
     * A listed file of a playbook the key can carry out; a script in the status names of the
     * deployment's choices when `choices` is given (read only for scripts: notes say nothing a choice
     * changes).
     */
    readFile(name: unknown, path: unknown, choices?: () => Choices, can?: SkillReach) {
      const found = find(name, can);
      if (!found.ok) return found;
      const skill = found.value;
      if (typeof path !== 'string') return invalid('/path', 'path must be a string');
      const unsafe = unsafePathReason(path);
      if (unsafe !== undefined)
        return invalid('/path', `path ${JSON.stringify(path.slice(0, 200))} ${unsafe}`);
      const file = skill.files.find((f) => f.path === path);
      if (file === undefined) {
        return missing(
          '/path',
          `path ${JSON.stringify(path.slice(0, 200))} is not a file that skill ${skill.name} lists (it lists: ${skill.files.map((f) => f.path).join(', ')})`,
        );
      }
      const text =
        choices === undefined || file.kind !== 'script'
          ? file.text
          : skillScriptOut(choices(), STATUSES, file.text);
      return succeed({ name: skill.name, ...listing(file), mediaType: file.mediaType, text });
    },
  };
}

export type SkillLibrary = ReturnType<typeof createSkillLibrary>;

/** What a key can carry out: its profile's tools and its scopes. */
export interface SkillReach {
  readonly tools: readonly string[];
  readonly scopes: readonly string[];
}

const reachOf = (ctx: AgentContext): SkillReach => ({
  tools: agentContract().profiles[ctx.identity.profile as AgentKeyProfile] ?? [],
  scopes: ctx.identity.scopes,
});

/** The three tools, loaded once (the playbooks are read at creation). */
export function createSkillTools(options: SkillToolsOptions = {}): AgentTool[] {
  const library = createSkillLibrary(options);
  return [
    {
      name: 'list_skills',
      // Only the playbooks this key can carry out: its profile's tools and its scopes.
      handle: (ctx: AgentContext) => library.list(reachOf(ctx)),
    },
    {
      name: 'read_skill',
      handle: (ctx: AgentContext, args) => library.read(args['name'], reachOf(ctx)),
    },
    {
      name: 'read_skill_file',
      handle: (ctx: AgentContext, args) =>
        library.readFile(args['name'], args['path'], () => ctx.engine.options.choices, reachOf(ctx)),
    },
  ];
}
