#!/usr/bin/env node
// The CLI is written in TypeScript. It runs from a bundle that bin/bundle-cache.js builds with esbuild
// and caches under node_modules/.cache/cca-kit/ (rebuilt when a source changes); when there is none
// (CCA_KIT_NO_BUNDLE=1, esbuild missing, a read-only directory, a build error), through tsx's loader.
import { loadBundledMain } from './bundle-cache.js';

const main = (await loadBundledMain()) ?? (await loadWithTsx());
process.exitCode = await main(process.argv.slice(2));

async function loadWithTsx() {
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../src/cli/main.ts')).main;
}
