/**
 * Browser test support: headless Chromium (Debian's, driven by playwright-core), a static file server
 * on 127.0.0.1:0, and the esbuild bundle of the MSW test page. Everything is built into a temp dir
 * at test time; nothing generated is committed.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { scaled } from '../support/timeouts.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: scaled(30_000) });
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the files of `dir` (no listing, no path escapes) on 127.0.0.1 with an ephemeral port. */
export async function serveStatic(dir: string): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://static.invalid').pathname;
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      },
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Builds the MSW test page into a fresh temp dir: `index.html`, `app.js` (the page bundled with
 * esbuild, `cca-kit/msw` resolved to this repository's entry) and `mockServiceWorker.js` (copied from
 * msw, which is what `npx msw init <dir>` does).
 */
export async function buildMswPage(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cca-kit-browser-'));
  await build({
    entryPoints: [join(ROOT, 'test/browser/app.ts')],
    outfile: join(dir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    alias: { 'cca-kit/msw': join(ROOT, 'mocks/msw/index.ts') },
    logLevel: 'silent',
  });
  await copyFile(join(ROOT, 'test/browser/index.html'), join(dir, 'index.html'));
  await copyFile(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface SeededKey {
  readonly key: string;
  readonly organizationId: string;
  readonly profile: string;
  readonly status: string;
}

/** The checked-in seeded keys (`fixtures/keys.json`). */
export async function seededKeys(): Promise<readonly SeededKey[]> {
  return JSON.parse(await readFile(join(ROOT, 'fixtures/keys.json'), 'utf8')) as SeededKey[];
}

export async function seededKey(organizationId: string, profile: string): Promise<string> {
  const found = (await seededKeys()).find(
    (k) => k.organizationId === organizationId && k.profile === profile && k.status === 'active',
  );
  if (found === undefined)
    throw new Error(`fixtures/keys.json has no active ${profile} key of ${organizationId}`);
  return found.key;
}
