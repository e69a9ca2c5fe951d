/**
 * `/__mock/data`: export the state as a data file (GET), replace everything with a file (PUT), merge
 * a file into the running state (POST). A file with any problem is refused whole with 422 and every
 * problem by JSON pointer; the running state is then untouched.
 */
import { applyDataFile, existingStateOf } from '../data-file/apply.ts';
import { exportDataFile } from '../data-file/export.ts';
import { NOTHING_EXISTS } from '../data-file/references.ts';
import type { DataProblem } from '../data-file/types.ts';
import { checkDataFile } from '../data-file/validate.ts';
import type { AdminResult, AdminRoute } from './route.ts';
import { ok } from './route.ts';

function refused(problems: readonly DataProblem[]): AdminResult {
  return {
    status: 422,
    body: {
      success: false,
      error: `the data file was refused (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was loaded`,
      problems,
    },
  };
}

const counts = (file: { organizations: readonly unknown[]; actions?: readonly unknown[] }) => ({
  organizations: file.organizations.length,
  actions: file.actions?.length ?? 0,
});

export const dataAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/data',
    summary: 'Export the current state as a data file (docs/data-format.md)',
    handle: ({ state }) => ok(exportDataFile(state)),
  },
  {
    method: 'PUT',
    path: '/__mock/data',
    summary:
      'Replace everything with a data file and start over (clock back to its start); 422 lists problems',
    handle: ({ api, state, clock, body }) => {
      const check = checkDataFile(body, NOTHING_EXISTS, clock.start);
      if (!check.ok) return refused(check.problems);
      state.loaded.generated = false;
      state.loaded.files = [check.file];
      api.reset();
      return ok({ loaded: counts(check.file), mode: 'replace', clock: api.clock() });
    },
  },
  {
    method: 'POST',
    path: '/__mock/data',
    summary: 'Merge a data file into the running state (the file wins on an id clash); 422 lists problems',
    handle: ({ api, state, clock, body }) => {
      const anchor = clock.now();
      const check = checkDataFile(body, existingStateOf(state), anchor);
      if (!check.ok) return refused(check.problems);
      applyDataFile(state, check.file, anchor);
      state.loaded.files.push(check.file);
      return ok({ loaded: counts(check.file), mode: 'merge', clock: api.clock() });
    },
  },
];
