/**
 * The dashboard of the mock (`/__mock/`): polls the admin API once a second while the tab is
 * visible, and drives it from the panels. No framework, no inline script, nothing from another origin.
 */
import { refreshJournal, setUpJournal } from './journal.ts';
import {
  onRefresh,
  refreshChaos,
  refreshClock,
  refreshIngestion,
  refreshKeys,
  refreshModeration,
  refreshReplies,
  setUpPanels,
} from './panels.ts';
import { say } from './status.ts';

const POLL_MS = 1000;

async function refresh(): Promise<void> {
  const results = await Promise.allSettled([
    refreshJournal(),
    refreshClock(),
    refreshKeys(),
    refreshModeration(),
    refreshIngestion(),
    refreshReplies(),
    refreshChaos(),
  ]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  const live = document.getElementById('live');
  if (live !== null) {
    live.textContent =
      failed === undefined ? `live · updated ${new Date().toLocaleTimeString()}` : 'not updating';
    live.dataset['kind'] = failed === undefined ? 'ok' : 'error';
  }
  if (failed !== undefined)
    say(
      `Updating failed: ${String(failed.reason instanceof Error ? failed.reason.message : failed.reason)}`,
      'error',
    );
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
