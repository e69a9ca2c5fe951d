/**
 * The subcommands of `cca-kit`, each in its own module and loaded only when it runs: `cca-kit mock`
 * never pays for the conformance suite (fast-check, the arbitraries, undici) and the reverse.
 */
import type { Command } from './io.ts';

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  load(): Promise<Command>;
}

export const commands: Readonly<Record<string, CommandEntry>> = {
  mock: {
    name: 'mock',
    summary: 'start the stateful mock server',
    load: async () => (await import('./mock-command.ts')).mockCommand,
  },
  dashboard: {
    name: 'dashboard',
    summary: "write the dashboard's files for a page whose mock runs in the browser (MSW)",
    load: async () => (await import('./dashboard-command.ts')).dashboardCommand,
  },
  conform: {
    name: 'conform',
    summary: 'check a deployment (or the mock) against the contract and the rules catalog',
    load: async () => (await import('./conform-command.ts')).conformCommand,
  },
  mcp: {
    name: 'mcp',
    summary: 'serve the agent interface (MCP tools) over stdio; the key comes from CCA_API_KEY',
    load: async () => (await import('./mcp-command.ts')).mcpCommand,
  },
  record: {
    name: 'record',
    summary: 'record a live deployment through a scrubbing proxy into a HAR file',
    load: async () => (await import('./record-command.ts')).recordCommand,
  },
  import: {
    name: 'import',
    summary: 'turn a recorded HAR file into a data file for cca-kit mock --data',
    load: async () => (await import('./import-command.ts')).importCommand,
  },
  drift: {
    name: 'drift',
    summary: 'compare the live OpenAPI document with the contract: breaking or additive changes',
    load: async () => (await import('./drift-command.ts')).driftCommand,
  },
  diff: {
    name: 'diff',
    summary: 'differential run: the same seeded requests to the mock and to live, structure compared',
    load: async () => (await import('./diff-command.ts')).diffCommand,
  },
};
