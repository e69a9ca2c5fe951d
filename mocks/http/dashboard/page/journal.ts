/**
 * The journal panel: the exchanges of both interfaces, newest first, with their violations (rule,
 * message, hint), filtered on the server (`GET /__mock/journal?...`), polled with `since`; one
 * exchange opens below with its headers and bodies (keys masked by the mock, shown as text here).
 */
import type { JournalEntry, JournalSummary } from '../../../engine/journal/types.ts';
import { call } from './api.ts';
import { byId, el, replaceChildren } from './dom.ts';
import { attempt, say } from './status.ts';

/** Rows kept on the page (the mock keeps its own bound). */
const MAX_ROWS = 500;

interface JournalAnswer {
  readonly entries: readonly JournalSummary[];
  readonly total: number;
  readonly retained: number;
  readonly capacity: number;
  readonly dropped: number;
}

let lastSeq = 0;
let generation = 0;

function filterQuery(): URLSearchParams {
  const query = new URLSearchParams();
  const form = byId<HTMLFormElement>('journal-filters');
  for (const name of ['status', 'rule', 'operation', 'organizationId', 'interface']) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) {
      const value = field.value.trim();
      if (value !== '') query.set(name, value);
    }
  }
  return query;
}

/** `14:07:29.120` of an ISO timestamp (the date is in the header's clock; the full time in the title). */
function clockTime(iso: string): string {
  return iso.slice(11, 23);
}

function time(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function violationList(entry: JournalSummary): HTMLElement {
  return el(
    'ul',
    { class: 'violations' },
    ...entry.violations.map((v) =>
      el(
        'li',
        { class: `severity-${v.severity}` },
        el('span', { class: 'severity' }, v.severity),
        ' ',
        el('strong', { class: 'rule' }, v.rule ?? v.keyword),
        ' ',
        v.field === '' ? null : el('code', {}, v.field),
        ' ',
        v.message,
        v.hint === null ? null : el('span', { class: 'hint' }, ` Hint: ${v.hint}`),
      ),
    ),
  );
}

function rows(entry: JournalSummary): HTMLElement[] {
  const open = el('button', { type: 'button', class: 'link', 'data-focus': `open-${entry.seq}` }, 'Open');
  open.setAttribute('aria-label', `Open exchange ${entry.seq}: ${entry.method} ${entry.path}`);
  open.addEventListener('click', () => void openExchange(entry.seq));
  const statusClass = entry.status === 0 ? 's0' : `s${String(entry.status)[0]}`;
  const main = el(
    'tr',
    { 'data-seq': entry.seq, class: entry.violations.length > 0 ? 'has-violations' : undefined },
    el('td', { class: 'num' }, entry.seq),
    el('td', { class: 'time', title: entry.at }, clockTime(entry.at)),
    el(
      'td',
      { class: 'path' },
      el('span', { class: `via via-${entry.interface}` }, entry.interface === 'mcp' ? 'MCP' : 'REST'),
      ' ',
      el('strong', {}, entry.method),
      ' ',
      entry.path,
    ),
    el('td', { class: 'operation' }, entry.operation ?? '—'),
    el(
      'td',
      {},
      entry.organizationId ?? '—',
      el('br'),
      el('span', { class: 'muted' }, entry.keyProfile ?? 'no key'),
    ),
    el(
      'td',
      { class: `status ${statusClass}` },
      entry.status === 0 ? 'dropped' : entry.status,
      entry.fault === null ? null : ' ',
      entry.fault === null
        ? null
        : el(
            'span',
            { class: 'fault-mark', title: `answered by the targeted fault ${entry.fault}` },
            `fault ${entry.fault}`,
          ),
    ),
    el('td', { class: 'num' }, `${entry.durationMs} ms`),
    el('td', {}, open),
  );
  if (entry.violations.length === 0) return [main];
  return [
    main,
    el(
      'tr',
      { class: 'violation-row', 'data-seq': entry.seq },
      el('td', { colspan: 8 }, violationList(entry)),
    ),
  ];
}

let queue: Promise<void> = Promise.resolve();

/** Fetches what is new (or everything, after a filter change) and shows it newest first; one at a time. */
export function refreshJournal(reset = false): Promise<void> {
  const next = queue.then(
    () => load(reset),
    () => load(reset),
  );
  queue = next.catch(() => undefined);
  return next;
}

async function load(reset: boolean): Promise<void> {
  const body = byId('journal-rows');
  const mine = reset ? ++generation : generation;
  if (reset) lastSeq = 0;
  const query = filterQuery();
  if (lastSeq > 0) query.set('since', String(lastSeq));
  const answer = await call<JournalAnswer>('GET', `journal?${query}`);
  if (mine !== generation) return;
  if (reset) replaceChildren(body, []);
  for (const entry of answer.entries) {
    lastSeq = Math.max(lastSeq, entry.seq);
    if (body.querySelector(`tr[data-seq="${entry.seq}"]`) !== null) continue;
    const made = rows(entry);
    for (const row of made.reverse()) body.prepend(row);
  }
  while (body.querySelectorAll('tr:not(.violation-row)').length > MAX_ROWS) {
    const last = body.lastElementChild;
    if (last === null) break;
    const seq = last.getAttribute('data-seq');
    for (const row of body.querySelectorAll(`tr[data-seq="${seq}"]`)) row.remove();
  }
  byId('journal-count').textContent =
    `${answer.retained} of ${answer.capacity} kept (${answer.total} recorded, ${answer.dropped} pushed out)`;
  byId('journal-empty').hidden = body.childElementCount > 0;
}

function headerList(headers: readonly (readonly [string, string])[]): HTMLElement {
  return el(
    'dl',
    { class: 'headers' },
    ...headers.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
  );
}

/** JSON bodies indented for reading; anything else exactly as it is. Shown as text either way. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function bodyBlock(label: string, body: JournalEntry['request']['body']): HTMLElement[] {
  const note =
    body.text === null
      ? 'no body (or not read by the mock)'
      : body.truncated
        ? `first part of ${body.bytes} bytes`
        : `${body.bytes} bytes`;
  const heading = el('h4', {}, `${label} body `, el('span', { class: 'muted' }, `(${note})`));
  if (body.text === null) return [heading];
  return [
    heading,
    el('pre', { class: 'body', tabindex: 0, 'aria-label': `${label} body` }, pretty(body.text)),
  ];
}

export async function openExchange(seq: number): Promise<void> {
  await attempt(`Opening exchange ${seq}`, async () => {
    const { entry } = await call<{ entry: JournalEntry }>('GET', `journal/${seq}`);
    const panel = byId('exchange');
    const heading = el(
      'h3',
      { tabindex: -1, id: 'exchange-title' },
      `Exchange ${entry.seq}: ${entry.method} ${entry.path} → ${entry.status}`,
    );
    const close = el('button', { type: 'button' }, 'Close');
    close.addEventListener('click', () => {
      panel.hidden = true;
      const opener = document.querySelector<HTMLElement>(`[data-focus="open-${seq}"]`);
      opener?.focus();
    });
    replaceChildren(panel, [
      el('div', { class: 'exchange-head' }, heading, close),
      el(
        'p',
        { class: 'muted' },
        `${entry.interface === 'mcp' ? 'MCP' : 'REST'} · ${entry.operation ?? 'no operation'} · ${entry.organizationId ?? 'no organization'} · key profile ${entry.keyProfile ?? 'none'} · ${time(entry.at)} · ${entry.durationMs} ms${entry.fault === null ? '' : ` · answered by the targeted fault ${entry.fault}`}`,
      ),
      entry.violations.length === 0 ? null : violationList(entry),
      el(
        'div',
        { class: 'exchange-grid' },
        el(
          'section',
          { 'aria-label': 'Request' },
          el('h4', {}, 'Request headers'),
          headerList(entry.request.headers),
          ...bodyBlock('Request', entry.request.body),
        ),
        el(
          'section',
          { 'aria-label': 'Response' },
          el('h4', {}, 'Response headers'),
          headerList(entry.response.headers),
          ...bodyBlock('Response', entry.response.body),
        ),
      ),
    ]);
    panel.hidden = false;
    heading.focus();
    return undefined;
  });
}

export function setUpJournal(): void {
  const form = byId<HTMLFormElement>('journal-filters');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt('Filtering the journal', async () => {
      await refreshJournal(true);
      return 'Journal filtered';
    });
  });
  form.addEventListener('reset', () => {
    setTimeout(() => void refreshJournal(true), 0);
  });
  byId('journal-clear').addEventListener('click', () => {
    void attempt('Clearing the journal', async () => {
      const { cleared } = await call<{ cleared: number }>('DELETE', 'journal');
      await refreshJournal(true);
      return `Journal cleared (${cleared} exchanges)`;
    });
  });
  byId<HTMLAnchorElement>('journal-har').addEventListener('click', () => say('HAR export downloading'));
}
