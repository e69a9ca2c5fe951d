/**
 * The server-to-client SSE stream of a session (`GET /mcp`) as the SDK's transport answers it has no
 * first chunk: nothing is enqueued until the server sends a notification, so a node:http adapter never
 * writes the status line and the client's `fetch` waits for headers forever. An SSE comment at once
 * (a line starting with `:`, which every SSE parser skips, WHATWG HTML 9.2.6) makes the headers go out,
 * and one every `intervalMs` keeps proxies and idle timers from closing a quiet stream.
 */
const encoder = new TextEncoder();

export const OPENED_COMMENT = ': stream open\n\n';
export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';

/** Whether a response is an event stream with a body (the only kind this wraps). */
function isEventStream(response: Response): boolean {
  return (
    response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
  );
}

/**
 * The same response with a comment first and a comment every `intervalMs` between the source's chunks.
 *
 * @example
 * return withKeepAlive(await transport.handleRequest(request), 15_000);
 */
export function withKeepAlive(response: Response, intervalMs: number): Response {
  if (!isEventStream(response) || response.body === null) return response;
  const reader = response.body.getReader();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(OPENED_COMMENT));
      timer = setInterval(() => {
        // A stream nobody reads (desiredSize <= 0) gets no more comments: memory stays bounded.
        if ((controller.desiredSize ?? 0) > 0) controller.enqueue(encoder.encode(KEEP_ALIVE_COMMENT));
      }, intervalMs);
      // A quiet stream must not keep the process alive on its own.
      timer.unref?.();
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          stop();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        stop();
        controller.error(error);
      }
    },
    cancel(reason) {
      stop();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
