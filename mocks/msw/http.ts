/**
 * msw's `http` namespace, the one part of msw the handlers use. Imported from the package root, the
 * only path msw 2 and msw 3 both export (`msw/core/http` is msw 2's, `msw/http` msw 3's), which is what
 * bundlers and running from source get. The published node build replaces this module (scripts/build.js,
 * `MSW_HTTP_NODE`) with one that loads the version's own lean path: msw 2's root also loads GraphQL
 * (~80 ms of node start-up); in a browser bundle tree-shaking drops it either way.
 */
export { http } from 'msw';
