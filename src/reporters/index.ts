export type { ConsoleReporterOptions } from './console.ts';
export { consoleProgress, renderConsoleReport } from './console.ts';
export { renderJsonReport } from './json.ts';
export { renderJunitReport } from './junit.ts';
export { REDACTED, redactDeep, redactString } from './redact.ts';
