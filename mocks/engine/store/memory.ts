/** The default store: no log at all, a command is applied and forgotten (the engine as it always was). */
import type { ApplyEntry, CommandStore } from './types.ts';

export function createMemoryStore(apply: ApplyEntry): CommandStore {
  let position = 0;
  return {
    kind: 'memory',
    synchronous: true,
    write(entry) {
      position += 1;
      return apply(entry);
    },
    catchUp: () => undefined,
    health: () => ({
      store: 'memory',
      location: null,
      position,
      logLength: position,
      lag: 0,
      connected: true,
      lastError: null,
    }),
    close: async () => undefined,
  };
}
