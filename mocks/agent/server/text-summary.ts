/**
 * The text block of a successful tool result. By default (`summary`) it is what a model needs to read
 * next to structuredContent, not the same JSON again: a small answer whole, a document's own text
 * (read_skill, read_skill_file) with one line about it, and for larger answers the counts, the first
 * items and the resume point. `full` is the whole JSON, for hosts that show a model only the text.
 */

export type TextMode = 'summary' | 'full';
export const TEXT_MODES: readonly TextMode[] = ['summary', 'full'];

/** Answers up to this many characters of JSON are their own summary. */
const WHOLE = 1200;
/** Characters of JSON shown for one item or value inside a summary. */
const PEEK = 240;
/** Items shown at the head of an array. */
const FIRST_ITEMS = 2;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function peek(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length <= PEEK ? text : `${text.slice(0, PEEK)}… (${text.length} chars)`;
}

/** One line per member: arrays by count and first items, long strings cut, objects by their keys. */
function describe(value: unknown, indent = ''): string[] {
  if (Array.isArray(value)) {
    const head = value.slice(0, FIRST_ITEMS).map((item, i) => `${indent}  [${i}] ${peek(item)}`);
    return [
      `${indent}${value.length} items${value.length > FIRST_ITEMS ? `, first ${FIRST_ITEMS}:` : ':'}`,
      ...head,
    ];
  }
  if (!isObject(value)) return [`${indent}${peek(value)}`];
  const lines: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (Array.isArray(member)) {
      lines.push(`${indent}${key}: ${member.length} items${member.length > 0 ? ', first:' : ''}`);
      for (const [i, item] of member.slice(0, FIRST_ITEMS).entries())
        lines.push(`${indent}  [${i}] ${peek(item)}`);
    } else lines.push(`${indent}${key}: ${peek(member)}`);
  }
  return lines;
}

function executeSummary(envelope: Json): string {
  const calls = isObject(envelope['calls']) ? envelope['calls'] : {};
  const byOperation = Array.isArray(calls['byOperation']) ? calls['byOperation'] : [];
  const truncated = isObject(envelope['truncated']) ? envelope['truncated'] : {};
  const cut = isObject(truncated['result']) ? truncated['result'] : null;
  const logs = Array.isArray(envelope['logs']) ? envelope['logs'] : [];
  const lines = [
    `execute completed in ${String(envelope['durationMs'])} ms; ${String(calls['total'] ?? 0)} calls${
      byOperation.length === 0
        ? ''
        : ` (${byOperation.map((o) => (isObject(o) ? `${String(o['operationId'])}: ${String(o['ok'])} ok, ${String(o['failed'])} failed` : '')).join('; ')})`
    }.`,
  ];
  const result = envelope['result'];
  const resultJson = JSON.stringify(result) ?? 'null';
  if (resultJson.length <= WHOLE) lines.push(`result: ${resultJson}`);
  else lines.push('result:', ...describe(result, '  '));
  if (cut !== null) {
    lines.push(`truncated.result: ${String(cut['message'])}`);
    if (isObject(cut['resume'])) lines.push(`resume: ${JSON.stringify(cut['resume'])}`);
  }
  if (logs.length > 0)
    lines.push(
      `logs: ${logs.length} lines; first: ${peek(logs[0])}${isObject(truncated['logs']) ? ` (${String(truncated['logs']['dropped'])} dropped)` : ''}`,
    );
  if (Array.isArray(calls['failed']) && calls['failed'].length > 0)
    lines.push(`failed calls: ${peek(calls['failed'])}`);
  lines.push('The whole answer is in structuredContent.');
  return lines.join('\n');
}

/**
 * The text of a success answered by `tool`.
 *
 * @example
 * resultText('execute', envelope, 'summary'); // "execute completed in 4 ms; 1 calls ...\nresult: {...}"
 */
export function resultText(tool: string, value: unknown, mode: TextMode): string {
  const json = JSON.stringify(value) ?? 'null';
  if (mode === 'full') return json;
  if (tool === 'execute' && isObject(value)) return executeSummary(value);
  if (json.length <= WHOLE) return json;
  if (isObject(value) && typeof value['text'] === 'string') {
    const { text, ...about } = value;
    return `${JSON.stringify(about)}\n\n${text}`;
  }
  return [...describe(value), 'The whole answer is in structuredContent.'].join('\n');
}
