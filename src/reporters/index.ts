export type { ConsoleReporterOptions } from './console.ts';
export { consoleProgress, renderConsoleReport } from './console.ts';
export { renderJsonReport } from './json.ts';
export { renderJunitReport } from './junit.ts';
export { renderMarkdownReport } from './markdown.ts';
export { REDACTED, redactDeep, redactString } from './redact.ts';
export { MAX_CONSOLE_URL, shortenUrls } from './urls.ts';
