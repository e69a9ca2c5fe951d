/** Helpers of the data-file, record and import tests: requests to an engine and typed reads of JSON. */
import type { Engine } from '../mocks/engine/index.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The value at `path` in a JSON value (undefined when a step is missing). */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let current: unknown = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** The array at `path` (empty when there is none). */
export function list(value: unknown, ...path: (string | number)[]): unknown[] {
  const found = at(value, ...path);
  return Array.isArray(found) ? found : [];
}

export async function get(
  engine: Engine,
  path: string,
  key: string,
): Promise<{ status: number; body: unknown }> {
  const response = await engine.handle(
    new Request(`http://mock.test${path}`, { headers: { 'x-api-key': key } }),
  );
  return { status: response.status, body: await response.json() };
}

export async function admin(
  engine: Engine,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await engine.handle(new Request(`http://mock.test${path}`, init), {
    remoteAddress: '127.0.0.1',
  });
  return { status: response.status, body: await response.json() };
}
