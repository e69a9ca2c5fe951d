/**
 * The dashboard ships: `npm pack` (what users install) carries the page, its style sheet and icon,
 * and every script module the page loads, compiled to JavaScript by the package build (run
 * `npm run build` first; `npm test` does).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './browser/harness.ts';

const PAGE = 'dist/mocks/http/dashboard/page/';

describe('the dashboard in the packed package', () => {
  it('packs index.html, dashboard.css, favicon.svg and every module the page imports, as JavaScript', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const [packed] = JSON.parse(out) as { files: { path: string }[] }[];
    const files = new Set((packed?.files ?? []).map((f) => f.path));
    for (const name of ['index.html', 'dashboard.css', 'favicon.svg', 'app.js'])
      expect(files).toContain(`${PAGE}${name}`);
    // The modules app.js reaches, followed through their imports (all relative, all .js once built).
    const seen = new Set<string>();
    const visit = (name: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      expect(files).toContain(`${PAGE}${name}`);
      const source = readFileSync(join(ROOT, PAGE, name), 'utf8');
      for (const [, target] of source.matchAll(/^import[^'"]*['"]\.\/([a-z-]+\.js)['"]/gm))
        visit(target ?? '');
      expect(source).not.toMatch(/from ['"]\.\/[a-z-]+\.ts['"]/);
    };
    visit('app.js');
    expect([...seen].sort()).toEqual(['api.js', 'app.js', 'dom.js', 'journal.js', 'panels.js', 'status.js']);
    // The HTML loads exactly the packed module and style sheet.
    const html = readFileSync(join(ROOT, PAGE, 'index.html'), 'utf8');
    expect(html).toContain('src="/__mock/dashboard/app.js"');
    expect(html).toContain('href="/__mock/dashboard/dashboard.css"');
  });
});
