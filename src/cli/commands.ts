/**
 * The subcommands of `cca-kit`. Each lives in its own module and is listed here once; `conform` (the
 * conformance suite) and `contract` are added by their owners.
 */
import { conformCommand } from './conform.ts';
import type { Command } from './io.ts';
import { mockCommand } from './mock-command.ts';

export const commands: Readonly<Record<string, Command>> = {
  mock: mockCommand,
  conform: conformCommand,
};
