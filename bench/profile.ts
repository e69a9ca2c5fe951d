/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): the functions with the most self time and
 * the most total time, with their file and line, so a profile can be read without a browser.
 *
 *   npx tsx bench/profile.ts <file.cpuprofile | directory> [top=25]
 *
 * Given a directory (`--cpu-prof-dir`), it reads the profile there with the most non-idle time: under
 * `node --import tsx` two profiles are written, the main thread's and the loader worker's, and the
 * worker's is nearly all idle, so taking the newest or the last one printed tables of nothing.
 * Code run through tsx arrives on one generated line, so a frame on line 1 is labelled with its
 * column and the nearest named function of the same file that called it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const short = (url: string) =>
    url.replace(/^file:\/\/\/work\/(main|wt\/[^/]+)\//, '').replace(/^file:\/\//, '');
  const labels = new Map<number, string>();
  const label = (n: ProfileNode): string => {
    const known = labels.get(n.id);
    if (known !== undefined) return known;
    const { functionName, url, lineNumber, columnNumber } = n.callFrame;
    let text = `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`;
    if (lineNumber === 0 && url.startsWith('file:') && columnNumber !== undefined) {
      text += `:${columnNumber + 1}`;
      if (functionName === '') {
        for (let up = parent.get(n.id); up !== undefined; up = parent.get(up)) {
          const caller = byId.get(up)?.callFrame;
          if (caller?.url === url && caller.functionName !== '') {
            text += ` (in ${caller.functionName})`;
            break;
          }
        }
      }
    }
    labels.set(n.id, text);
    return text;
  };
  const selfBy = new Map<string, number>();
  const totalBy = new Map<string, number>();
  let all = 0;
  for (const [id, us] of self) {
    all += us;
    const node = byId.get(id);
    if (node === undefined) continue;
    selfBy.set(label(node), (selfBy.get(label(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (n === undefined) break;
      const l = label(n);
      if (seen.has(l)) continue;
      seen.add(l);
      totalBy.set(l, (totalBy.get(l) ?? 0) + us);
    }
  }
  const rows = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([l, us]) =>
          `${((us / all) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${l}`,
      )
      .join('\n');
  return `total ${(all / 1000).toFixed(0)} ms sampled\n\nSELF\n${rows(selfBy)}\n\nTOTAL (inclusive)\n${rows(totalBy)}\n`;
}

/** Sampled time outside `(idle)`, `(program)` and the collector: the work the profile shows. */
export function busyTime(profile: Profile): number {
  const idle = new Set(
    profile.nodes
      .filter((n) => n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)')
      .map((n) => n.id),
  );
  let busy = 0;
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) busy += profile.timeDeltas[i] ?? 0;
  });
  return busy;
}

/** The profile of `path`, or of the busiest `.cpuprofile` in it when it is a directory. */
export function readProfile(path: string): { file: string; profile: Profile } {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(path, f))
    : [path];
  let best: { file: string; profile: Profile; busy: number } | undefined;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const busy = busyTime(profile);
    if (best === undefined || busy > best.busy) best = { file, profile, busy };
  }
  if (best === undefined) throw new Error(`no .cpuprofile in ${path}`);
  return best;
}

if (process.argv[1]?.endsWith('profile.ts')) {
  const path = process.argv[2];
  if (path === undefined) throw new Error('usage: tsx bench/profile.ts <file.cpuprofile | directory> [top]');
  const { file, profile } = readProfile(path);
  process.stdout.write(`${file}\n${summarise(profile, Number.parseInt(process.argv[3] ?? '25', 10))}`);
}
