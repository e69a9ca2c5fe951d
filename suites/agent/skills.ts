/**
 * Skills (4.18): list, read, every listed file readable; unlisted files, traversal (plain and
 * encoded), absolute paths and another playbook's files refused. Argument and result shapes are not
 * shown in the spec: they are read from the tools' input schemas and the answers.
 */
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { dataOf, type ListedTool, type McpSession } from '../../src/conformance/kit/mcp/session.ts';
import { agentExamples, brief, isObj, type Json, withSession } from './support.ts';

const GROUP = 'agent';

function stringProps(tool: ListedTool | undefined): string[] {
  const schema = (tool?.inputSchema ?? {}) as { properties?: Record<string, { type?: unknown }> };
  return Object.entries(schema.properties ?? {})
    .filter(([, p]) => p.type === 'string' || p.type === undefined)
    .map(([name]) => name);
}

/** The first array of named objects in a value (the value itself, or one of its members). */
function namedItems(value: unknown): Json[] {
  const arrays = Array.isArray(value)
    ? [value]
    : isObj(value)
      ? Object.values(value).filter(Array.isArray)
      : [];
  for (const array of arrays) {
    const items = (array as unknown[]).filter(isObj);
    if (items.length > 0 && items.every((i) => typeof i['name'] === 'string')) return items;
  }
  return [];
}

/** The file names a playbook lists (`files` as strings or objects with a path or name). */
function filesOf(value: unknown): string[] {
  const holder = isObj(value) && isObj(value['skill']) ? value['skill'] : value;
  const files = isObj(holder) ? holder['files'] : undefined;
  if (!Array.isArray(files)) return [];
  return files.flatMap((f) => {
    if (typeof f === 'string') return [f];
    if (!isObj(f)) return [];
    const name = f['path'] ?? f['name'] ?? f['file'];
    return typeof name === 'string' ? [name] : [];
  });
}

interface SkillTools {
  readonly session: McpSession;
  readonly readSkillArg: string;
  readonly skillArg: string;
  readonly fileArg: string;
}

async function skillTools(session: McpSession): Promise<SkillTools> {
  const tools = await session.listTools();
  const readSkill = stringProps(tools.find((t) => t.name === 'read_skill'));
  const readFile = stringProps(tools.find((t) => t.name === 'read_skill_file'));
  const fileArg = readFile.find((n) => /file|path/i.test(n)) ?? readFile[1] ?? 'file';
  return {
    session,
    readSkillArg: readSkill[0] ?? 'name',
    skillArg: readFile.find((n) => n !== fileArg) ?? 'skill',
    fileArg,
  };
}

async function listed(t: SkillTools): Promise<{ name: string; files: string[] }[]> {
  const answer = await t.session.callTool('list_skills', {});
  if (answer.kind !== 'result' || answer.isError)
    violate(
      'AGENT-MCP-SKILL-FILES-READABLE',
      'list-skills-failed',
      `list_skills failed: ${brief(dataOf(answer) ?? answer)}`,
    );
  const skills = namedItems(dataOf(answer));
  if (skills.length === 0)
    violate(
      'AGENT-MCP-SKILL-FILES-READABLE',
      'no-skills',
      `list_skills lists no playbook: ${brief(dataOf(answer))}`,
    );
  const out: { name: string; files: string[] }[] = [];
  for (const skill of skills) {
    const name = String(skill['name']);
    const read = await t.session.callTool('read_skill', { [t.readSkillArg]: name });
    if (read.kind !== 'result' || read.isError)
      violate(
        'AGENT-MCP-SKILL-FILES-READABLE',
        'read-skill-failed',
        `read_skill ${name} failed: ${brief(dataOf(read) ?? read)}`,
      );
    const files = filesOf(dataOf(read));
    out.push({ name, files: files.length > 0 ? files : filesOf(skill) });
  }
  return out;
}

const readable: Law = {
  id: 'agent.skills.readable',
  group: GROUP,
  title: 'list_skills lists playbooks; read_skill reads each; every listed file is readable',
  ruleIds: ['AGENT-MCP-SKILL-FILES-READABLE'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, () =>
      withSession(ctx, 'read', async (session) => {
        const t = await skillTools(session);
        let checks = 0;
        for (const skill of await listed(t)) {
          for (const file of skill.files) {
            const answer = await session.callTool('read_skill_file', {
              [t.skillArg]: skill.name,
              [t.fileArg]: file,
            });
            if (answer.kind !== 'result' || answer.isError)
              violate(
                'AGENT-MCP-SKILL-FILES-READABLE',
                'file-unreadable',
                `read_skill_file ${skill.name}/${file} (listed) failed: ${brief(dataOf(answer) ?? answer)}`,
              );
            checks += 1;
          }
          checks += 1;
        }
        return checks;
      }),
    ),
};

const onlyListed: Law = {
  id: 'agent.skills.only-listed-files',
  group: GROUP,
  title:
    'read_skill_file refuses unlisted names, traversal, encoded traversal, absolute paths, other playbooks',
  ruleIds: ['AGENT-MCP-SKILL-FILE-ONLY-LISTED'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, () =>
      withSession(ctx, 'read', async (session) => {
        const t = await skillTools(session);
        const skills = await listed(t);
        const first = skills[0];
        if (first === undefined) return 0;
        const own = first.files[0] ?? 'README.md';
        const probes = [
          'cca-conform-not-listed.md',
          `../${own}`,
          `../../../../etc/passwd`,
          `%2e%2e%2f%2e%2e%2fpackage.json`,
          `..%2f..%2fpackage.json`,
          '/etc/passwd',
          `./${own}/../../package.json`,
          'C:\\Windows\\win.ini',
        ];
        for (const other of skills.slice(1)) {
          for (const file of other.files) if (!first.files.includes(file)) probes.push(file);
        }
        for (const probe of probes) {
          const answer = await session.callTool('read_skill_file', {
            [t.skillArg]: first.name,
            [t.fileArg]: probe,
          });
          if (answer.kind === 'result' && !answer.isError)
            violate(
              'AGENT-MCP-SKILL-FILE-ONLY-LISTED',
              'served-unlisted',
              `read_skill_file ${first.name} served ${JSON.stringify(probe)}, which the playbook does not list`,
              { skill: first.name, file: probe },
            );
        }
        return probes.length;
      }),
    ),
};

export const skillLaws: readonly Law[] = [readable, onlyListed];
