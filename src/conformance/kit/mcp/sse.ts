/**
 * Reading a Streamable HTTP answer: one JSON-RPC message (or a batch) as `application/json`, or a
 * `text/event-stream` whose `data:` events each carry one message.
 */

/** The JSON values of the `data:` events of an SSE body (events that are not JSON are skipped). */
export function sseMessages(text: string): unknown[] {
  const out: unknown[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    try {
      out.push(JSON.parse(data));
    } catch {
      // A non-JSON event (a keep-alive comment or a priming event) carries no message.
    }
  }
  return out;
}

/** The JSON-RPC messages of an answer body, whatever its content type. */
export function messagesOf(contentType: string, text: string): unknown[] {
  if (contentType.includes('text/event-stream')) return sseMessages(text);
  if (text.trim() === '') return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  } catch {
    return [];
  }
}
