/** Every optional part of the engine (`parts.ts`): the engine as the CLI and node users know it. */
import { adminRoutesPart } from './admin/part.ts';
import { choicesPart } from './choices/part.ts';
import { agentWritesPart } from './commands/agent-part.ts';
import { dataFilesPart } from './data-file/part.ts';
import type { EngineParts } from './parts.ts';

export const FULL_PARTS: EngineParts = {
  adminRoutes: adminRoutesPart,
  dataFiles: dataFilesPart,
  choices: choicesPart,
  agentWrites: agentWritesPart,
};
