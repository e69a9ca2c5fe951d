/**
 * Another commit's tree for a "before" figure: unpacked with `git archive` into a temporary folder
 * (no worktree, nothing of this checkout touched), node_modules linked to this one's, removed after.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../test/support/processes.ts';

/** The short commit id of `ref` in `root` (default this checkout). */
export function shortCommit(ref = 'HEAD', root = ROOT): string {
  return execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], { cwd: root })
    .toString()
    .trim();
}

/** Runs `body` over the tree of `ref`, then removes the tree whatever happens. */
export async function withCommitTree<T>(
  ref: string,
  body: (tree: string, commit: string) => Promise<T>,
): Promise<T> {
  const commit = shortCommit(ref);
  const tree = mkdtempSync(join(tmpdir(), `cca-tree-${commit}-`));
  try {
    execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${tree}"`], { cwd: ROOT });
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    return await body(tree, commit);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
