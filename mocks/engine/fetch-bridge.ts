/**
 * The edge between the engine's plain exchange and the Fetch API: `engine.handle(Request)` (MSW, tests,
 * in-process callers) converts here; the node adapter never does.
 */
import { concatBytes, type EngineRequest, type EngineResponse, type RequestBody } from './exchange.ts';

/** Reads a stream to its end, or stops (and cancels it) once it passes `maxBytes`. */
async function readStream(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | 'too-large'> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : concatBytes(chunks);
}

function streamBody(stream: ReadableStream<Uint8Array>): RequestBody {
  return {
    read: (maxBytes) => readStream(stream, maxBytes),
    discard: () => {
      stream.cancel().catch(() => undefined);
    },
  };
}

export function fromFetchRequest(
  request: Request,
  remoteAddress: string | undefined,
  inProcess = false,
): EngineRequest {
  const converted = {
    method: request.method.toUpperCase(),
    url: new URL(request.url),
    headers: request.headers,
    body: request.body === null ? null : streamBody(request.body),
    remoteAddress,
  };
  return inProcess ? { ...converted, inProcess } : converted;
}

export function toFetchResponse(response: EngineResponse): Response {
  if (response.kind === 'drop') return Response.error();
  const body = response.body;
  const init =
    typeof body === 'string' || body === null || body instanceof Uint8Array ? body : concatBytes(body);
  return new Response(init as BodyInit | null, {
    status: response.status,
    headers: response.headers,
  });
}

/**
 * The other way, for wrappers written against `handle` (the mutation harness) that must also serve
 * `dispatch`. The body is read whole first, up to `maxBytes` + 1 so an oversized one still reaches
 * the engine's 413.
 */
export async function toFetchRequest(request: EngineRequest, maxBytes: number): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of request.headers.entries()) headers.append(name, value);
  let body: Uint8Array | undefined;
  if (request.body !== null) {
    const read = await request.body.read(maxBytes + 1);
    body = read === 'too-large' ? new Uint8Array(maxBytes + 1) : read;
  }
  return new Request(request.url, {
    method: request.method,
    headers,
    ...(body === undefined ? {} : { body: body as BodyInit }),
  });
}

export async function fromFetchResponse(response: Response): Promise<EngineResponse> {
  if (response.type === 'error') return { kind: 'drop' };
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') headers[name] = value;
  });
  const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer());
  return { kind: 'answer', status: response.status, headers, body };
}
