/**
 * What a model pays for the agent interface, in characters: `tools/list` bytes per key profile and
 * the characters of each answer for four tasks (see `sections/agent-budget.ts`), printed as Markdown.
 * The same figures are the `agent-budget` section of `npm run bench`.
 *
 * Run: `npx tsx bench/agent-budget.ts` (this checkout), or
 * `npx tsx bench/agent-budget.ts --before a3a4501` (that commit too, unpacked into a temporary folder).
 */
import { parseArgs } from 'node:util';
import { agentBudget, agentBudgetBefore, renderAgentBudget } from './sections/agent-budget.ts';

const { values } = parseArgs({ args: process.argv.slice(2), options: { before: { type: 'string' } } });
const after = await agentBudget();
const before = values.before === undefined ? undefined : await agentBudgetBefore(values.before);
console.log(
  renderAgentBudget(
    { ...after, ...(before === undefined ? {} : { before }) },
    '_`npx tsx bench/agent-budget.ts`_',
  ),
);
process.exit(0);
