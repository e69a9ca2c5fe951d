/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): the functions with the most self time and
 * the most total time, with their file and line, so a profile can be read without a browser.
 *
 *   npx tsx bench/profile.ts <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
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
  const label = (n: ProfileNode) => {
    const url = n.callFrame.url.replace(/^file:\/\/\/work\/main\//, '').replace(/^file:\/\//, '');
    return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
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

if (process.argv[1]?.endsWith('profile.ts')) {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: tsx bench/profile.ts <file.cpuprofile> [top]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  process.stdout.write(summarise(profile, Number.parseInt(process.argv[3] ?? '25', 10)));
}
