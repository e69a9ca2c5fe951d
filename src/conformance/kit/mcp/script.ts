/**
 * Running a law's script through `execute` on any deployment. The envelope of an `execute` result
 * is not shown in the spec (4.18), so the script reports through a channel every envelope keeps:
 * its console output. The law's body runs inside an async function; its value, or the error it
 * threw (name, message, and whether it was an `Error`), is printed once between markers, and the
 * markers are found in any string of the result (structured content or text).
 */
import type { McpSession, ToolAnswer } from './session.ts';

const OPEN = '<<cca-result>>';
const CLOSE = '<</cca-result>>';

/** What a law's script came back with. */
export type ScriptOutcome =
  /** The body returned `value`. */
  | { readonly kind: 'value'; readonly value: unknown; readonly answer: ToolAnswer }
  /** The body threw (caught inside the script). */
  | {
      readonly kind: 'threw';
      readonly isError: boolean;
      readonly name: string;
      readonly message: string;
      /** The error's own `code` and `kind` members, when the deployment sets them. */
      readonly code: string | null;
      readonly errorKind: string | null;
      readonly answer: ToolAnswer;
    }
  /** `execute` itself failed (time-out, syntax error, limit...) or printed no result. */
  | { readonly kind: 'failed'; readonly answer: ToolAnswer; readonly text: string };

/**
 * Which pieces of a result a run prints (see `runScript`): from piece `from` up, before piece `to`
 * (null: to the last), and whether the script may also return them as its value.
 */
export interface PieceRequest {
  readonly from: number;
  readonly to: number | null;
  readonly returned: boolean;
}

/**
 * The script sent for a law body. The body is an async function body: it may `await call(...)`
 * and `return` a JSON value. With `pieces`, the result is printed in pieces instead (see `runScript`).
 */
export function wrapScript(body: string, pieces: PieceRequest | null = null): string {
  const print =
    pieces === null
      ? `console.log(${JSON.stringify(OPEN)} + JSON.stringify(__ccaOut) + ${JSON.stringify(CLOSE)});`
      : // Pieces of CHUNK characters, one console line each, as many as the deployment's console budget
        // keeps: the console gets them from the top down, the return value (when the deployment takes
        // one) from the bottom up, so the two budgets add up; the reader asks again for what is missing.
        [
          `{ const t = JSON.stringify(__ccaOut); const n = Math.ceil(t.length / ${CHUNK});`,
          `  const piece = (i) => ${JSON.stringify(CHUNK_OPEN)} + i + '/' + n + ':' + t.slice(i * ${CHUNK}, (i + 1) * ${CHUNK}) + ${JSON.stringify(CLOSE)};`,
          `  const from = ${pieces.from}; const to = Math.min(n, ${pieces.to ?? 'n'});`,
          `  for (let i = to - 1; i >= from && i >= to - ${CHUNKS_PER_RUN}; i--) console.log(piece(i));`,
          `  for (let i = from; i < to && i < from + ${CHUNKS_PER_RUN}; i++) __ccaPieces.push(piece(i)); }`,
        ].join('\n');
  return [
    'const __ccaBody = async () => {',
    body,
    '};',
    'let __ccaOut;',
    'const __ccaPieces = [];',
    'try {',
    '  __ccaOut = { ok: true, value: await __ccaBody() };',
    '} catch (e) {',
    '  __ccaOut = { ok: false, isError: e instanceof Error, name: String(e && e.name),',
    '    message: String(e && e.message !== undefined ? e.message : e),',
    "    code: e && typeof e.code === 'string' ? e.code : null, kind: e && typeof e.kind === 'string' ? e.kind : null };",
    '}',
    print,
    ...(pieces?.returned === true ? ['return __ccaPieces;'] : []),
  ].join('\n');
}

/** Pieces of a result too large for one console line: characters each, and at most so many per run. */
const CHUNK = 1500;
const CHUNKS_PER_RUN = 40;
const CHUNK_OPEN = '<<cca-piece>>';

/** Every piece (`index/count:text`) printed in an answer, by index. */
function piecesOf(value: unknown, found: Map<number, string>, count: { n: number }, depth = 0): void {
  if (depth > 12) return;
  if (typeof value === 'string') {
    let at = value.indexOf(CHUNK_OPEN);
    while (at >= 0) {
      const end = value.indexOf(CLOSE, at);
      if (end < 0) return;
      const match = /^(\d+)\/(\d+):/.exec(value.slice(at + CHUNK_OPEN.length, end));
      if (match !== null) {
        const index = Number(match[1]);
        count.n = Number(match[2]);
        // The first reading wins: structuredContent is read before a text that may quote it escaped.
        if (!found.has(index)) found.set(index, value.slice(at + CHUNK_OPEN.length + match[0].length, end));
      }
      at = value.indexOf(CHUNK_OPEN, end);
    }
    return;
  }
  if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) piecesOf(item, found, count, depth + 1);
}

function findMarked(value: unknown, depth = 0): string | undefined {
  if (depth > 12) return undefined;
  if (typeof value === 'string') {
    // Only a marked text that parses: a deployment's text summary may quote a console line as JSON
    // (markers around escaped quotes), or cut it.
    for (let start = value.indexOf(OPEN); start >= 0; start = value.indexOf(OPEN, start + 1)) {
      const end = value.indexOf(CLOSE, start + OPEN.length);
      if (end < 0) return undefined;
      const marked = value.slice(start + OPEN.length, end);
      try {
        JSON.parse(marked);
        return marked;
      } catch {}
    }
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const hit = findMarked(item, depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) {
      const hit = findMarked(item, depth + 1);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

function textParts(answer: ToolAnswer): unknown[] {
  if (answer.kind !== 'result') return [];
  return answer.content.map((c) => {
    const text = (c as { text?: unknown }).text;
    if (typeof text !== 'string') return c;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  });
}

/** Reads the marked result out of an `execute` answer. */
export function scriptOutcome(answer: ToolAnswer): ScriptOutcome {
  const marked =
    answer.kind === 'result'
      ? (findMarked(answer.structuredContent) ?? findMarked(textParts(answer)))
      : undefined;
  if (marked === undefined) {
    const text =
      answer.kind === 'result'
        ? JSON.stringify(answer.structuredContent ?? answer.content)
        : `JSON-RPC error ${answer.code}: ${answer.message}`;
    return { kind: 'failed', answer, text: text.length > 500 ? `${text.slice(0, 500)}...` : text };
  }
  const out = JSON.parse(marked) as {
    ok: boolean;
    value?: unknown;
    isError?: boolean;
    name?: string;
    message?: string;
    code?: string | null;
    kind?: string | null;
  };
  if (out.ok) return { kind: 'value', value: out.value, answer };
  return {
    kind: 'threw',
    isError: out.isError === true,
    name: out.name ?? '',
    message: out.message ?? '',
    code: out.code ?? null,
    errorKind: out.kind ?? null,
    answer,
  };
}

const scriptArgs = new WeakMap<McpSession, string>();

/**
 * The name of `execute`'s script argument, read from its input schema (the spec says only "script
 * text"): the required string property, else `script`.
 */
export async function scriptArgument(session: McpSession): Promise<string> {
  const known = scriptArgs.get(session);
  if (known !== undefined) return known;
  const tool = (await session.listTools()).find((t) => t.name === 'execute');
  const schema = (tool?.inputSchema ?? {}) as {
    properties?: Record<string, { type?: unknown }>;
    required?: unknown;
  };
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const strings = Object.entries(schema.properties ?? {})
    .filter(([, p]) => p.type === 'string')
    .map(([name]) => name);
  const name = strings.find((n) => required.includes(n)) ?? strings[0] ?? 'script';
  scriptArgs.set(session, name);
  return name;
}

/**
 * What a session learned about how its deployment answers large results: that it cuts a long
 * console line (so later bodies are read in pieces from the start), and whether a script may
 * `return` its pieces (a deployment that runs the script as a module refuses a top-level `return`).
 */
interface PieceManners {
  cuts: boolean;
  returns: boolean | undefined;
}

const manners = new WeakMap<McpSession, PieceManners>();

/**
 * Runs a law body through `execute`. A deployment that sizes its answers for a model may cut a large
 * result's console line: the body is then run again to print its result in pieces, as many runs as
 * the deployment's console and result budgets need (only reads have such results; a law that writes
 * returns little). Once a session has seen a cut, its later bodies are read in pieces from the first
 * run (a result that fits comes whole in that run, so nothing runs twice that did not before).
 */
export async function runScript(session: McpSession, body: string): Promise<ScriptOutcome> {
  const arg = await scriptArgument(session);
  const known = manners.get(session) ?? { cuts: false, returns: undefined };
  manners.set(session, known);
  let first: ScriptOutcome | undefined;
  if (!known.cuts) {
    first = scriptOutcome(await session.callTool('execute', { [arg]: wrapScript(body) }));
    if (first.kind !== 'failed' || first.answer.kind !== 'result' || first.answer.isError === true)
      return first;
    // Only a result line that began and was cut is read again in pieces (never a script that failed).
    if (!JSON.stringify([first.answer.structuredContent ?? null, first.answer.content]).includes(OPEN))
      return first;
    known.cuts = true;
  }
  const pieces = new Map<number, string>();
  const count = { n: 0 };
  let answered: ToolAnswer | undefined;
  for (let round = 0; round < 100; round++) {
    let from = 0;
    while (pieces.has(from)) from++;
    if (count.n > 0 && from >= count.n) break;
    let to = count.n > 0 ? count.n : null;
    while (to !== null && to > from && pieces.has(to - 1)) to--;
    const returned = known.returns !== false;
    const answer = await session.callTool('execute', { [arg]: wrapScript(body, { from, to, returned }) });
    answered ??= answer;
    const before = pieces.size;
    if (answer.kind === 'result') {
      piecesOf(answer.structuredContent, pieces, count);
      piecesOf(textParts(answer), pieces, count);
    }
    if (pieces.size > before) {
      if (returned) known.returns = true;
      continue;
    }
    // Nothing came back. A deployment that refuses a top-level `return` (it says so): try again
    // without it, once for the session.
    if (returned && known.returns === undefined && /return/i.test(answerText(answer))) {
      known.returns = false;
      continue;
    }
    return first ?? scriptOutcome(answer);
  }
  // Every piece read: the result, as one marked line would have carried it. Else (the rounds ran
  // out) what the first run showed, or the last run as a failure.
  if (answered === undefined || count.n === 0 || pieces.size < count.n)
    return first ?? scriptOutcome(answered ?? { kind: 'rpc-error', code: undefined, message: 'no answer' });
  let text = '';
  for (let i = 0; i < count.n; i++) text += pieces.get(i) ?? '';
  const shown = first?.answer ?? answered;
  const read = scriptOutcome({
    kind: 'result',
    isError: false,
    structuredContent: { text: `${OPEN}${text}${CLOSE}` },
    content: [],
  });
  return read.kind === 'failed' ? (first ?? read) : { ...read, answer: shown };
}

/** An answer as text, to look for what the deployment said. */
function answerText(answer: ToolAnswer): string {
  return answer.kind === 'result'
    ? JSON.stringify([answer.structuredContent ?? null, answer.content])
    : answer.message;
}

/** A JSON literal for a script (inputs are embedded as JSON, never spliced as code). */
export function literal(value: unknown): string {
  return JSON.stringify(value);
}
