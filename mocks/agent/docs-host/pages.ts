/**
 * The documentation pages of the agent host (spec 4.18 rule 5), written from the project's own data:
 * the agent contract (tools, profiles, failures, the operation catalog), the rules catalog, the REST
 * contract's operation table and docs/agent-interface.md. Each page is Markdown; `llms.txt` links
 * them and `llms-full.txt` is all of them in one file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentContract } from '../../../src/contract/agent.ts';
import { contractDocument } from '../../../src/contract/load.ts';
import { rules } from '../../../src/contract/rules.ts';
import type { ToolSet } from '../server/tool-set.ts';
import { loadSkills } from '../skills/index.ts';

export interface DocPage {
  /** The URL path of the Markdown page, e.g. `/agent-docs/tools.md`. */
  readonly path: string;
  readonly title: string;
  /** One line for llms.txt. */
  readonly summary: string;
  readonly markdown: string;
  /**
   * Listed under "Optional" in llms.txt and left out of llms-full.txt: the longer reference a model
   * reads only when the pages above do not answer (the llms.txt format's own convention).
   */
  readonly optional?: boolean;
}

export interface PageSources {
  readonly contract: AgentContract;
  readonly tools: ToolSet;
}

const fence = (value: unknown): string => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/**
 * A schema as a model needs it: the `x-` extensions (the contract's `x-spec-gap` notes on what the
 * specification leaves unstated) are maintainers' text and stay in the repository.
 */
export function withoutExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExtensions);
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value))
    if (!key.startsWith('x-')) kept[key] = withoutExtensions(inner);
  return kept;
}

/** A compact schema in a fence: one line, no extensions (the operations page holds many). */
const compactFence = (value: unknown): string =>
  `\`\`\`json\n${JSON.stringify(withoutExtensions(value))}\n\`\`\``;

function toolsPage({ contract, tools }: PageSources): string {
  const lines = ['# Agent tools (MCP)', ''];
  lines.push(
    'Connect over Streamable HTTP at `/mcp` on this origin (or `cca-kit mcp --stdio`). Send the API key as `Authorization: Bearer <key>` or `X-API-Key: <key>`.',
    '',
    '## Tools per key profile',
    '',
    '| profile | tools | why |',
    '|---|---|---|',
  );
  const profiles = (contract.files['tools.json'] as { profiles?: Record<string, { why?: string }> }).profiles;
  for (const [profile, names] of Object.entries(contract.profiles)) {
    lines.push(`| ${profile} | ${names.join(', ') || '(none)'} | ${profiles?.[profile]?.why ?? ''} |`);
  }
  for (const declaration of contract.tools) {
    lines.push('', `## ${declaration.name}`, '', declaration.description, '');
    const served = tools.served.find((t) => t.declaration.name === declaration.name);
    if (served === undefined) {
      lines.push('Not served by this build yet.');
      continue;
    }
    // The output schema is in tools/list, where a client reads it; here it would double the page.
    lines.push('Arguments:', '', fence(withoutExtensions(served.inputSchema)));
  }
  return lines.join('\n');
}

function failuresPage({ contract }: PageSources): string {
  const lines = [
    '# Agent failures',
    '',
    'A failed tool call is an MCP result with `isError: true` whose text is one of these objects as JSON (discriminated by `kind`, with a stable `code`), and no `structuredContent`. Inside `execute`, a failed `call()` throws an `Error` carrying the same failure; a failure of `execute` itself adds `execution` (the logs and calls made before it).',
    '',
    '| kind | code | section | meaning |',
    '|---|---|---|---|',
  ];
  const kinds =
    (
      contract.files['failures.json'] as {
        kinds?: { kind: string; code: string; section: string | null; summary: string }[];
      }
    ).kinds ?? [];
  for (const k of kinds) lines.push(`| ${k.kind} | ${k.code} | ${k.section ?? 'mock'} | ${k.summary} |`);
  lines.push(
    '',
    'Every failure has `kind`, `code` and `message`; `invalid_input`, `not_found` and `conflict` add `field`, a JSON pointer to the argument that is wrong (`/operationId` for an unknown operation id).',
    '',
    'A result cut at a size limit is not a failure: `execute` answers a success whose `truncated.result` reports the limit, the full size and `resume` (where the next execution starts).',
  );
  return lines.join('\n');
}

interface CatalogOperation {
  readonly id: string;
  readonly summary: string;
  readonly effect: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}

function operationsPage({ contract }: PageSources): string | undefined {
  const file = contract.files['operations.json'] as { operations?: CatalogOperation[] } | undefined;
  const operations = file?.operations;
  if (operations === undefined) return undefined;
  const lines = [
    '# Operations behind execute',
    '',
    "Inside `execute`, `spec()` lists these (id, summary, effect) and `spec(id)` returns one's input and output schemas; `await call(id, input)` validates the input against the schema below first. A write needs a key with the `write` scope.",
    '',
    '| id | effect | summary |',
    '|---|---|---|',
  ];
  for (const op of operations) lines.push(`| \`${op.id}\` | ${op.effect} | ${op.summary} |`);
  for (const op of operations) {
    lines.push(
      '',
      `## ${op.id}`,
      '',
      op.summary,
      '',
      'Input (the output schema: `spec(id)`):',
      '',
      compactFence(op.inputSchema),
    );
  }
  return lines.join('\n');
}

function skillsPage(): string | undefined {
  const skills = loadSkills();
  if (skills.length === 0) return undefined;
  const lines = [
    '# Skills (playbooks)',
    '',
    'The task playbooks `list_skills` lists. `read_skill` returns a playbook; `read_skill_file` returns one of the files it lists (only those). Scripts run with `execute`.',
  ];
  for (const skill of skills) {
    lines.push('', `## ${skill.name}: ${skill.title}`, '', skill.summary, '', 'Files:', '');
    for (const file of skill.files) lines.push(`- \`${file.path}\` (${file.kind}): ${file.description}`);
    lines.push('', skill.text.replace(/^#/gm, '###').trimEnd());
  }
  return lines.join('\n');
}

function rulesPage(): string {
  const lines = [
    '# Agent interface rules',
    '',
    'The normative statements of the agent interface, from the rules catalog, with their stable ids. `check` says how a client can verify a rule: `live` on any deployment, `live-write` needs writes, `mock-only` needs control of the server.',
  ];
  for (const rule of rules) {
    if (!rule.id.startsWith('AGENT-MCP-') || rule.retired === true) continue;
    lines.push(
      '',
      `## ${rule.id}`,
      '',
      `${rule.statement} (section ${rule.section}, ${rule.kind}, ${rule.check})`,
    );
  }
  return lines.join('\n');
}

function restPage(): string {
  const lines = [
    '# The REST interface (same engine)',
    '',
    'Every REST request carries `X-API-Key`. An action an agent finds through MCP is the same action the REST list returns. OpenAPI JSON: `/docs/json`; Swagger UI: `/docs`.',
    '',
    '| operationId | method | path | summary |',
    '|---|---|---|---|',
  ];
  const paths = contractDocument.paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
      const op = item?.[method];
      if (op === undefined) continue;
      lines.push(`| ${op.operationId ?? ''} | ${method.toUpperCase()} | \`${path}\` | ${op.summary ?? ''} |`);
    }
  }
  return lines.join('\n');
}

/**
 * The served text speaks to an agent developer: what docs/ marks for this repository's maintainers
 * (`<!-- maintainers -->...<!-- /maintainers -->`: which test proves what, SDK choices) is left out.
 */
function forAgents(markdown: string | undefined): string | undefined {
  return markdown?.replace(/<!-- maintainers -->[\s\S]*?<!-- \/maintainers -->\n?/g, '');
}

/** A repository path or a contract extension: text for the people who change this repository. */
const MAINTAINER_TEXT =
  /x-spec-gap|`(?:mocks|src|test|suites|contract|scripts|bench|fixtures)\/|`docs\/[^`]*\.md`|\bREADME\b/;

/**
 * A repository page as served: paragraphs, list items and table rows that name repository paths or
 * `x-spec-gap` notes are left out (the page in docs/ keeps them). Fenced blocks are kept whole.
 */
export function withoutMaintainerNotes(markdown: string): string {
  const kept: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && !line.startsWith('```') && MAINTAINER_TEXT.test(line) && !line.startsWith('#')) continue;
    // A heading stays, less its note on where the contract marks the gap.
    kept.push(line.startsWith('#') ? line.replace(/\s*\(`x-spec-gap`[^)]*\)/, '') : line);
  }
  return kept.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** A page of docs/, from the source tree or beside the built package; undefined when absent. */
function docsFile(name: string): string | undefined {
  for (const relative of [`../../../docs/${name}`, `../../../../docs/${name}`]) {
    try {
      return readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');
    } catch {
      // Not at this location (a built package keeps docs one level up); try the next.
    }
  }
  return undefined;
}

/** Every page, in llms.txt order (the optional ones last there). */
export function buildPages(sources: PageSources): readonly DocPage[] {
  const pages: DocPage[] = [];
  const start = docsFile('agent-start.md');
  if (start !== undefined)
    pages.push({
      path: '/agent/docs/start.md',
      title: 'Start here',
      summary: 'What to call, in what order, with examples: skills, execute, paging, replies, failures.',
      markdown: start,
    });
  const guide = forAgents(docsFile('agent-interface.md'));
  if (guide !== undefined)
    pages.push({
      path: '/agent/docs/agent-interface.md',
      title: 'Agent interface guide',
      summary:
        'How the mock honours every statement of spec 4.18, every choice where the spec is silent, limits and flags.',
      markdown: withoutMaintainerNotes(guide),
      optional: true,
    });
  // The guide links it: the reply lifecycle and the confirmation page.
  const replies = forAgents(docsFile('agent-replies.md'));
  if (replies !== undefined)
    pages.push({
      path: '/agent/docs/agent-replies.md',
      title: 'The reply lifecycle',
      summary:
        'A reply request from draft to delivered / failed / unknown: the tools, the states and moves, what an agent does in each state (the confirmation page has a page of its own).',
      markdown: withoutMaintainerNotes(replies),
      optional: true,
    });
  const confirmation = forAgents(docsFile('agent-confirmation.md'));
  if (confirmation !== undefined)
    pages.push({
      path: '/agent/docs/agent-confirmation.md',
      title: 'The confirmation page',
      summary:
        'Where a person approves or rejects a reply review_reply linked to: what the page shows, what decides, what is refused; an agent never opens the link itself.',
      markdown: withoutMaintainerNotes(confirmation),
      optional: true,
    });
  pages.push({
    path: '/agent/docs/tools.md',
    title: 'Agent tools',
    summary: 'The MCP tools, which key profile sees which, and their input and output schemas.',
    markdown: toolsPage(sources),
  });
  const operations = operationsPage(sources);
  if (operations !== undefined)
    pages.push({
      path: '/agent/docs/operations.md',
      title: 'Operations behind execute',
      summary: 'The operation catalog that spec() lists, with input and output schemas.',
      markdown: operations,
    });
  const skills = skillsPage();
  if (skills !== undefined)
    pages.push({
      path: '/agent/docs/skills.md',
      title: 'Skills',
      summary: 'The playbooks list_skills lists, their files and their steps.',
      markdown: skills,
    });
  pages.push(
    {
      path: '/agent/docs/failures.md',
      title: 'Agent failures',
      summary: 'Failure kinds and codes of tool results and of call() inside execute.',
      markdown: failuresPage(sources),
    },
    {
      path: '/agent/docs/rules.md',
      title: 'Agent interface rules',
      summary: 'The AGENT-MCP-* rules with stable ids, sections and checks.',
      markdown: rulesPage(),
      optional: true,
    },
    {
      path: '/agent/docs/rest.md',
      title: 'REST interface',
      summary: 'The REST operations served by the same engine, with their paths.',
      markdown: restPage(),
    },
  );
  return pages;
}
