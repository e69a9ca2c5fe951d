/**
 * The dashboard of the mock (`/__mock/`): polls the admin API once a second while the tab is
 * visible, and drives it from the panels. No framework, no inline script, nothing from another origin.
 */
import { refreshJournal, setUpJournal } from './journal.ts';
import {
  onRefresh,
  refreshChaos,
  refreshClock,
  refreshFaults,
  refreshIngestion,
  refreshKeys,
  refreshModeration,
  refreshReplies,
  setUpPanels,
} from './panels.ts';
import { reasonOf, say } from './status.ts';

const POLL_MS = 1000;

/** What each load reads, as the status line names it when it fails. */
const LOADS: readonly (readonly [string, () => Promise<void>])[] = [
  ['the requests', refreshJournal],
  ['the clock', refreshClock],
  ['the API keys', refreshKeys],
  ['the moderation cases', refreshModeration],
  ['the ingestion batches', refreshIngestion],
  ['the reply requests', refreshReplies],
  ['the chaos modes', refreshChaos],
  ['the targeted faults', refreshFaults],
];

/** A failed load stays named on the status line until every load works again, which is said too. */
let failing = false;

async function refresh(): Promise<void> {
  const results = await Promise.allSettled(LOADS.map(([, load]) => load()));
  const failed = results.flatMap((result, i) =>
    result.status === 'rejected' ? [{ what: LOADS[i]?.[0] ?? 'a panel', reason: result.reason }] : [],
  );
  const live = document.getElementById('live');
  if (live !== null) {
    // No local time here: the header's one clock is the mock's.
    live.textContent = failed.length === 0 ? 'live' : 'not updating';
    live.dataset['kind'] = failed.length === 0 ? 'ok' : 'error';
  }
  const first = failed[0];
  if (first !== undefined) {
    failing = true;
    say(
      `Could not load ${failed.map((f) => f.what).join(', ')}: ${reasonOf(first.reason)}. Trying again every second.`,
      'error',
    );
  } else if (failing) {
    failing = false;
    say('Loading works again: every panel is up to date');
  }
}

let running = false;
async function tick(): Promise<void> {
  if (running || document.hidden) return;
  running = true;
  try {
    await refresh();
  } finally {
    running = false;
  }
}

setUpJournal();
setUpPanels();
onRefresh(refresh);
void tick();
setInterval(() => void tick(), POLL_MS);
document.addEventListener('visibilitychange', () => void tick());
