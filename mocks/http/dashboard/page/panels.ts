/**
 * The state panels: clock, keys, moderation cases, ingestion batches, reply requests, chaos modes,
 * targeted faults and data. Each reads one admin route and re-renders only when what it shows changed (focus is kept).
 */
import type { ClockView, KeyView } from '../../../engine/admin/api.ts';
import type { BatchView } from '../../../engine/admin/ingestion-batches.ts';
import type { ChaosConfig } from '../../../engine/chaos/config.ts';
import type { FaultView } from '../../../engine/faults/types.ts';
import type { CaseSummary } from '../../../engine/moderation/status.ts';
import type { AdminReplyView } from '../../../engine/replies/admin-ops.ts';
import type { Organization } from '../../../engine/types.ts';
import { ApiError, call } from './api.ts';
import { button, byId, el, replaceChildren, safePath } from './dom.ts';
import { attempt } from './status.ts';

/** What each key profile may do (spec 5.2; the scopes come with every key from the mock). */
const PROFILE_DOES: Readonly<Record<string, string>> = {
  reporting: 'read the reporting and analytics routes',
  write: 'custom fields and moderation submissions',
  read_write: 'read, and write custom fields and moderation submissions',
  import: 'ingest records and read ingestion counts; no reporting',
};

const shown = new Map<string, string>();

/** Renders only when the data changed since the last render of this panel. */
function changed(panel: string, data: unknown): boolean {
  const text = JSON.stringify(data);
  if (shown.get(panel) === text) return false;
  shown.set(panel, text);
  return true;
}

/** After an action: the next refresh renders every panel again. */
export function forget(): void {
  shown.clear();
}

let refreshAll: () => Promise<void> = async () => undefined;
export function onRefresh(refresh: () => Promise<void>): void {
  refreshAll = refresh;
}
async function andRefresh(message: string): Promise<string> {
  forget();
  await refreshAll();
  return message;
}

const iso = (ms: number | string | null): string =>
  ms === null
    ? 'never'
    : new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');

// ---- clock

export async function refreshClock(): Promise<void> {
  const { clock } = await call<{ clock: ClockView }>('GET', 'clock');
  if (!changed('clock', clock)) return;
  byId('clock-now').textContent = iso(clock.now);
  byId('clock-mode').textContent = clock.running
    ? 'running with real time'
    : 'frozen: moves only when advanced or set';
}

function setUpClock(): void {
  const advance = (ms: number, label: string) =>
    attempt('Advancing the clock', async () => {
      await call('POST', 'clock/advance', { ms });
      return andRefresh(`Clock advanced by ${label}`);
    });
  for (const node of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
    const ms = Number(node.dataset['advance']);
    node.addEventListener('click', () => void advance(ms, node.textContent ?? `${ms} ms`));
  }
  byId<HTMLFormElement>('clock-advance').addEventListener('submit', (event) => {
    event.preventDefault();
    const amount = Number(byId<HTMLInputElement>('advance-amount').value);
    const unit = Number(byId<HTMLSelectElement>('advance-unit').value);
    void advance(
      amount * unit,
      `${amount} × ${byId<HTMLSelectElement>('advance-unit').selectedOptions[0]?.textContent ?? ''}`,
    );
  });
  byId<HTMLFormElement>('clock-set').addEventListener('submit', (event) => {
    event.preventDefault();
    const now = byId<HTMLInputElement>('clock-set-value').value.trim();
    void attempt('Setting the clock', async () => {
      await call('POST', 'clock/set', { now });
      return andRefresh(`Clock set to ${now}`);
    });
  });
}

// ---- organizations and keys

let organizations: readonly Organization[] = [];

export async function refreshKeys(): Promise<void> {
  const [{ organizations: orgs }, { keys }] = await Promise.all([
    call<{ organizations: Organization[] }>('GET', 'organizations'),
    call<{ keys: KeyView[] }>('GET', 'keys'),
  ]);
  organizations = orgs;
  if (changed('organizations', orgs)) {
    for (const id of ['key-organization', 'filter-organization']) {
      const select = byId<HTMLSelectElement>(id);
      const keep = select.value;
      const first = id === 'filter-organization' ? [el('option', { value: '' }, 'any')] : [];
      replaceChildren(select, [
        ...first,
        ...orgs.map((o) => el('option', { value: o.id }, `${o.name} (${o.id})`)),
      ]);
      if ([...select.options].some((o) => o.value === keep)) select.value = keep;
    }
  }
  if (!changed('keys', keys)) return;
  const byOrganization = new Map<string, KeyView[]>();
  for (const key of keys)
    byOrganization.set(key.organizationId, [...(byOrganization.get(key.organizationId) ?? []), key]);
  replaceChildren(
    byId('keys-list'),
    [...byOrganization].map(([organizationId, list]) =>
      el(
        'section',
        { class: 'org-keys' },
        el(
          'h3',
          {},
          organizations.find((o) => o.id === organizationId)?.name ?? organizationId,
          ' ',
          el('span', { class: 'muted' }, organizationId),
        ),
        el(
          'table',
          {},
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ...['Key', 'Profile: may', 'Status', 'Actions'].map((h) => el('th', { scope: 'col' }, h)),
            ),
          ),
          el('tbody', {}, ...list.map(keyRow)),
        ),
      ),
    ),
  );
}

function keyRow(key: KeyView): HTMLElement {
  const focus = `key-${key.organizationId}-${key.name}-${key.id.slice(-6)}`;
  const revoke =
    key.status === 'active'
      ? button(
          'Revoke',
          () => {
            // Revoking cannot be undone but by a reset, and the seeded keys are the ones tests use.
            if (
              !confirm(
                `Revoke the key "${key.name}" (${key.profile}, ${key.organizationId})? Its next request is answered 401, and only a reset of the mock brings a seeded key back.`,
              )
            )
              return;
            void attempt('Revoking the key', async () => {
              await call('POST', `keys/${encodeURIComponent(key.id)}/revoke`);
              return andRefresh(`Key ${key.name} revoked: its next request is answered 401`);
            });
          },
          {
            'data-focus': `revoke-${focus}`,
            'aria-label': `Revoke key ${key.name} (${key.profile}, ${key.organizationId})`,
            class: 'danger',
          },
        )
      : null;
  const value = key.key;
  // A key loaded by hash has no value to copy: the mock never saw it.
  const copy =
    value === null
      ? null
      : button(
          'Copy',
          () =>
            void attempt('Copying the key', async () => {
              await navigator.clipboard.writeText(value);
              return `Key ${key.name} copied`;
            }),
          { 'data-focus': `copy-${focus}`, 'aria-label': `Copy key ${key.name}`, class: 'small' },
        );
  return el(
    'tr',
    { 'data-key-name': key.name },
    el(
      'td',
      {},
      el('strong', {}, key.name),
      el('br'),
      el('code', { class: 'muted' }, value === null ? key.id : `${value.slice(0, 10)}…`),
    ),
    el(
      'td',
      {},
      key.profile,
      el('br'),
      el(
        'span',
        { class: 'muted' },
        `scope ${key.scopes.join(', ')}${PROFILE_DOES[key.profile] === undefined ? '' : ` · ${PROFILE_DOES[key.profile]}`}`,
      ),
    ),
    el(
      'td',
      {},
      el('span', { class: `key-${key.status}` }, key.status),
      el('br'),
      el(
        'span',
        { class: 'muted' },
        key.expiresAt === null ? 'no expiry' : `until ${iso(key.expiresAt).slice(0, 10)}`,
      ),
    ),
    el('td', { class: 'actions' }, copy, ' ', revoke),
  );
}

function setUpKeys(): void {
  byId<HTMLFormElement>('key-create').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = byId<HTMLInputElement>('key-name').value.trim();
    const input = {
      organizationId: byId<HTMLSelectElement>('key-organization').value,
      profile: byId<HTMLSelectElement>('key-profile').value,
      expiry: byId<HTMLSelectElement>('key-expiry').value,
      ...(name === '' ? {} : { name }),
    };
    void attempt('Creating the key', async () => {
      const { key } = await call<{ key: KeyView }>('POST', 'keys', input);
      return andRefresh(
        `Key ${key.name} created (${key.profile}, ${key.organizationId}); copy it from the list`,
      );
    });
  });
}

// ---- moderation

export async function refreshModeration(): Promise<void> {
  const { cases } = await call<{ cases: CaseSummary[] }>('GET', 'moderation/cases');
  if (!changed('moderation', cases)) return;
  byId('moderation-empty').hidden = cases.length > 0;
  replaceChildren(
    byId('moderation-rows'),
    [...cases].reverse().map((c) => {
      const settled =
        c.analysisStatus === 'completed' ||
        c.analysisStatus === 'failed' ||
        c.analysisStatus === 'policy_not_configured';
      return el(
        'tr',
        { 'data-case': c.caseId },
        el('td', {}, el('code', {}, c.caseId)),
        el('td', {}, c.externalId, el('br'), el('span', { class: 'muted' }, c.organizationId)),
        el('td', { class: `state state-${c.analysisStatus}` }, c.analysisStatus),
        el(
          'td',
          {},
          c.decision === undefined
            ? (c.failureCode ?? '—')
            : `${c.decision.disposition} (${c.decision.confidence})`,
        ),
        el(
          'td',
          {},
          settled
            ? null
            : button(
                'Step',
                () =>
                  void attempt('Stepping the case', async () => {
                    const { case: moved } = await call<{ case: CaseSummary }>(
                      'POST',
                      `moderation/cases/${encodeURIComponent(c.caseId)}/step`,
                    );
                    return andRefresh(`Case ${c.caseId} is now ${moved.analysisStatus}`);
                  }),
                { 'data-focus': `step-${c.caseId}`, 'aria-label': `Step case ${c.caseId} one state on` },
              ),
        ),
      );
    }),
  );
}

// ---- ingestion

export async function refreshIngestion(): Promise<void> {
  const answer = await call<{ batches: BatchView[]; pendingBatches: number }>('GET', 'ingestion/batches');
  if (!changed('ingestion', answer)) return;
  byId('ingestion-empty').hidden = answer.batches.length > 0;
  byId('ingestion-pending').textContent = `${answer.pendingBatches} batch(es) waiting for processing`;
  replaceChildren(
    byId('ingestion-list'),
    answer.batches.map((batch) => {
      const counts = new Map<string, number>();
      for (const r of batch.records ?? []) counts.set(r.fate, (counts.get(r.fate) ?? 0) + 1);
      const summary =
        batch.records === null
          ? 'records not kept (body over the journal limit)'
          : `${batch.records.length} record(s): ${[...counts].map(([fate, n]) => `${n} ${fate}`).join(', ')}`;
      return el(
        'details',
        { class: 'batch' },
        el(
          'summary',
          { 'data-focus': `batch-${batch.seq}` },
          `#${batch.seq} ${batch.organizationId} · ${batch.platform}/${batch.serverId} · ${batch.processingLevel} · ${summary}`,
        ),
        el(
          'ul',
          {},
          ...(batch.records ?? []).map((r) =>
            el(
              'li',
              {},
              el('code', {}, r.externalId),
              ' → ',
              r.fate === 'action'
                ? `action ${r.actionId}`
                : r.fate === 'pending'
                  ? `pending (due ${r.dueAt === null ? '?' : iso(r.dueAt)})`
                  : r.fate,
            ),
          ),
        ),
      );
    }),
  );
}

function setUpIngestion(): void {
  byId('ingestion-flush').addEventListener('click', () => {
    void attempt('Processing due batches', async () => {
      const { upserted } = await call<{ upserted: string[] }>('POST', 'ingestion/flush');
      return andRefresh(`Processed: ${upserted.length} action(s) created or updated`);
    });
  });
}

// ---- replies

/** Code points of a reply's text the panel shows; the confirmation page shows it whole (up to 4000). */
const REPLY_TEXT_SHOWN = 280;

/** The reply's text, as text; a long one is cut (whole in the title) so that it keeps the list readable. */
function replyText(text: string): HTMLElement {
  const points = Array.from(text);
  const cut = points.length > REPLY_TEXT_SHOWN;
  return el(
    'span',
    { class: 'reply-text', title: cut ? text : undefined },
    cut ? `${points.slice(0, REPLY_TEXT_SHOWN).join('')}…` : text,
  );
}

export async function refreshReplies(): Promise<void> {
  const { replies } = await call<{ replies: AdminReplyView[] }>('GET', 'replies');
  if (!changed('replies', replies)) return;
  byId('replies-empty').hidden = replies.length > 0;
  replaceChildren(
    byId('replies-rows'),
    [...replies].reverse().flatMap((r) => {
      const path = r.approvalPath === null ? null : safePath(r.approvalPath);
      // Four narrow columns and the text on a row of its own: at 1280x800 the side panel is ~440 px
      // wide, and the link (what a person comes here for) must show without scrolling sideways.
      const line = el(
        'tr',
        { 'data-request': r.requestId, class: 'reply-row' },
        el(
          'td',
          { class: 'ids' },
          el('code', {}, r.requestId),
          el('br'),
          el('span', { class: 'muted' }, r.organizationId),
        ),
        el('td', { class: 'ids' }, r.actionId),
        el(
          'td',
          {},
          el('span', { class: `state state-${r.state}` }, r.state),
          r.terminal ? null : el('br'),
          r.terminal ? null : el('span', { class: 'muted' }, `planned outcome: ${r.plannedOutcome}`),
        ),
        el(
          'td',
          {},
          path === null
            ? '—'
            : el(
                'a',
                {
                  href: path,
                  target: '_blank',
                  rel: 'noopener noreferrer',
                  'data-focus': `reply-${r.requestId}`,
                },
                r.state === 'awaiting_approval' ? 'Confirmation page' : 'Page',
              ),
        ),
      );
      const text = el(
        'tr',
        { 'data-request-text': r.requestId, class: 'reply-text-row' },
        el('td', { colspan: 4 }, replyText(r.text)),
      );
      return [line, text];
    }),
  );
}

// ---- chaos

interface ChaosAnswer {
  readonly chaos: ChaosConfig;
  readonly stats: Readonly<Record<string, number>>;
}

function showChaos(answer: ChaosAnswer): void {
  if (!changed('chaos', answer)) return;
  const c = answer.chaos;
  byId<HTMLInputElement>('chaos-unknownFields').checked = c.unknownFields;
  byId<HTMLInputElement>('chaos-bigIds').checked = c.bigIds;
  const active = (id: string) => document.activeElement === byId(id);
  if (!active('chaos-latency'))
    byId<HTMLInputElement>('chaos-latency').value =
      c.latency === null ? '' : `${c.latency.minMs}-${c.latency.maxMs}`;
  if (!active('chaos-errorRate')) byId<HTMLInputElement>('chaos-errorRate').value = String(c.errorRate);
  if (!active('chaos-dropRate')) byId<HTMLInputElement>('chaos-dropRate').value = String(c.dropRate);
  const on = [
    c.unknownFields && 'unknown fields',
    c.bigIds && 'big ids',
    c.latency !== null && 'latency',
    c.errorRate > 0 && 'errors',
    c.dropRate > 0 && 'drops',
  ].filter(Boolean);
  byId('chaos-summary').textContent = on.length === 0 ? 'all modes off' : `on: ${on.join(', ')}`;
  byId('chaos-stats').textContent = Object.entries(answer.stats)
    .map(([name, n]) => `${CHAOS_COUNTERS[name] ?? name}: ${n}`)
    .join(' · ');
}

/** The chaos counters as people read them (`GET /__mock/chaos` names them for programs). */
const CHAOS_COUNTERS: Readonly<Record<string, string>> = {
  requests: 'requests seen',
  delayed: 'delayed',
  delayedMs: 'total delay (ms)',
  errors: 'errors injected',
  drops: 'connections dropped',
  unknownFields: 'unknown fields added',
  idsRewritten: 'ids served as big ids',
  aliases: 'big-id aliases',
};

let chaosAbsent = false;

export async function refreshChaos(): Promise<void> {
  if (chaosAbsent) return;
  try {
    showChaos(await call<ChaosAnswer>('GET', 'chaos'));
  } catch (error) {
    // An engine created without the chaos interceptor: say so once, keep the rest of the page live.
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    chaosAbsent = true;
    byId('chaos-summary').textContent = 'not installed in this mock (createChaos())';
    for (const control of byId<HTMLFormElement>('chaos-form').elements) control.setAttribute('disabled', '');
  }
}

function setUpChaos(): void {
  byId<HTMLFormElement>('chaos-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const latency = byId<HTMLInputElement>('chaos-latency').value.trim();
    const patch = {
      unknownFields: byId<HTMLInputElement>('chaos-unknownFields').checked,
      bigIds: byId<HTMLInputElement>('chaos-bigIds').checked,
      latency: latency === '' ? null : latency,
      errorRate: Number(byId<HTMLInputElement>('chaos-errorRate').value || '0'),
      dropRate: Number(byId<HTMLInputElement>('chaos-dropRate').value || '0'),
    };
    void attempt('Changing chaos modes', async () => {
      await call('PUT', 'chaos', patch);
      return andRefresh('Chaos modes applied');
    });
  });
  byId('chaos-off').addEventListener('click', () => {
    void attempt('Turning chaos off', async () => {
      await call('DELETE', 'chaos');
      return andRefresh('Every chaos mode is off');
    });
  });
}

// ---- targeted faults

function faultItem(fault: FaultView): HTMLElement {
  const counts =
    fault.remaining === null
      ? `answered ${fault.fired} · every time until removed`
      : fault.remaining === 0
        ? `answered ${fault.fired} · spent`
        : `answered ${fault.fired} · ${fault.remaining} left`;
  return el(
    'li',
    { 'data-fault': fault.id, class: fault.remaining === 0 ? 'spent' : undefined },
    el('code', { class: 'fault-id' }, fault.id),
    ' ',
    el('span', { class: 'fault-what' }, fault.description),
    el('br'),
    el('span', { class: 'muted fault-counts' }, counts),
    ' ',
    button(
      'Remove',
      () =>
        void attempt('Removing the fault', async () => {
          await call('DELETE', `faults/${encodeURIComponent(fault.id)}`);
          return andRefresh(`Fault ${fault.id} removed`);
        }),
      { class: 'small', 'data-focus': `remove-${fault.id}`, 'aria-label': `Remove fault ${fault.id}` },
    ),
  );
}

export async function refreshFaults(): Promise<void> {
  const { faults } = await call<{ faults: FaultView[] }>('GET', 'faults');
  if (!changed('faults', faults)) return;
  byId('faults-empty').hidden = faults.length > 0;
  replaceChildren(byId('faults-list'), faults.map(faultItem));
}

/** What the form's answer choice adds to a fault. */
const FAULT_ANSWERS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  '500': { status: 500 },
  '403': { status: 403 },
  '404': { status: 404 },
  drop: { drop: true },
  delay: { delayMs: 2000 },
  failCase: { failCase: true },
};

function setUpFaults(): void {
  byId<HTMLFormElement>('fault-add').addEventListener('submit', (event) => {
    event.preventDefault();
    const operation = byId<HTMLInputElement>('fault-operation').value.trim();
    const answer = FAULT_ANSWERS[byId<HTMLSelectElement>('fault-answer').value] ?? {};
    const times = Number(byId<HTMLInputElement>('fault-times').value || '1');
    void attempt('Adding the fault', async () => {
      const { fault } = await call<{ fault: FaultView }>('POST', 'faults', { operation, ...answer, times });
      return andRefresh(`Fault ${fault.id} set: ${fault.description}`);
    });
  });
  byId('faults-clear').addEventListener('click', () => {
    void attempt('Removing the faults', async () => {
      const { cleared } = await call<{ cleared: number }>('DELETE', 'faults');
      return andRefresh(`${cleared} fault(s) removed`);
    });
  });
}

// ---- data

function setUpData(): void {
  byId<HTMLFormElement>('data-upload').addEventListener('submit', (event) => {
    event.preventDefault();
    const file = byId<HTMLInputElement>('data-file').files?.[0];
    const mode =
      byId<HTMLFormElement>('data-upload').querySelector<HTMLInputElement>('input[name="mode"]:checked')
        ?.value ?? 'merge';
    const problems = byId('data-problems');
    replaceChildren(problems, []);
    if (file === undefined) {
      void attempt('Loading the data file', async () => {
        throw new Error('choose a data file first');
      });
      return;
    }
    void attempt('Loading the data file', async () => {
      try {
        await call(mode === 'replace' ? 'PUT' : 'POST', 'data', await file.text());
      } catch (error) {
        const listed =
          (error as { body?: { problems?: { pointer?: string; message?: string }[] } }).body?.problems ?? [];
        replaceChildren(
          problems,
          listed.slice(0, 50).map((p) => el('li', {}, el('code', {}, p.pointer ?? ''), ' ', p.message ?? '')),
        );
        throw error;
      }
      return andRefresh(`${file.name} loaded (${mode})`);
    });
  });
  byId('data-reset').addEventListener('click', () => {
    if (!confirm('Reset the mock: rebuild every record from the seed and put the clock back to its start?'))
      return;
    void attempt('Resetting', async () => {
      await call('POST', 'reset');
      return andRefresh('The mock was reset');
    });
  });
}

export function setUpPanels(): void {
  setUpClock();
  setUpKeys();
  setUpIngestion();
  setUpChaos();
  setUpFaults();
  setUpData();
}
