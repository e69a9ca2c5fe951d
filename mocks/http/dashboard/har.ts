/**
 * The journal as a HAR 1.2 file, scrubbed exactly as `cca-kit record` scrubs a recording: the
 * recorder's `entryOf` and `Scrubber` (keys pseudonymised, customer names, handles, emails and free
 * text replaced), then the recorder's leak check over the written text. A body the journal kept only
 * part of is left out (a cut JSON text cannot be scrubbed by path), as the recorder leaves out bodies
 * over its limit.
 */
import { STATUS_CODES } from 'node:http';
import type { Entry, Har } from 'har-format';
import { entryOf, harOf } from '../../../src/har/har.ts';
import { DEFAULT_SCRUB_RULES, Scrubber } from '../../../src/har/scrub.ts';
import { findLeaks } from '../../../src/har/verify.ts';
import type { JournalEntry } from '../../engine/journal/index.ts';

export type JournalHar =
  | { readonly ok: true; readonly har: Har; readonly text: string }
  | { readonly ok: false; readonly reason: string };

/**
 * @example
 * const out = journalHar(journal.entries(), 'http://127.0.0.1:4010', '0.1.0');
 * if (out.ok) writeFileSync('session.har', out.text);
 */
export function journalHar(entries: readonly JournalEntry[], origin: string, version: string): JournalHar {
  const scrubber = new Scrubber(DEFAULT_SCRUB_RULES);
  const harEntries: Entry[] = entries.map((entry) => {
    const har = entryOf(
      {
        startedAt: Date.parse(entry.at),
        elapsedMs: entry.durationMs,
        method: entry.method,
        url: `${origin}${entry.path}`,
        requestHeaders: entry.request.headers,
        requestBody: entry.request.body.truncated ? null : entry.request.body.text,
        status: entry.status,
        // 0 is an answer the mock dropped (chaos): no HTTP status, so a name of our own.
        statusText: entry.status === 0 ? 'Dropped' : (STATUS_CODES[entry.status] ?? ''),
        responseHeaders: entry.response.headers,
        responseBody: entry.response.body.truncated ? null : entry.response.body.text,
        responseBytes: entry.response.body.bytes,
      },
      scrubber,
    );
    return { ...har, _journalSeq: entry.seq, _interface: entry.interface, _operation: entry.operation };
  });
  const first = entries[0];
  const recorded = harOf(
    harEntries.map((entry) => scrubber.everywhere(entry)),
    origin,
    first === undefined ? 0 : Date.parse(first.at),
    version,
  );
  const har: Har = {
    log: {
      ...recorded.log,
      creator: { name: 'cca-kit mock journal', version },
      comment: `cca-kit mock journal of ${origin} (${entries.length} exchanges, engine clock times); scrubbed as cca-kit record scrubs`,
    },
  };
  const text = `${JSON.stringify(har, null, 2)}\n`;
  const leaks = findLeaks(text, scrubber.secrets(), scrubber.keys());
  if (leaks > 0)
    return {
      ok: false,
      reason: `${leaks} scrubbed value(s) or key(s) still appeared in the HAR; not served`,
    };
  return { ok: true, har, text };
}
