/**
 * The keys the agent laws use on our mock: the suite's usual roles plus a Read-and-write key of the
 * read key's organization (`readWrite`, `CCA_READ_WRITE_KEY` on a deployment), the only profile with
 * both `execute` and writes in the mock's tool table (contract/agent/tools.json).
 */
import type { Engine } from '../../mocks/engine/engine.ts';
import type { Keys } from '../../src/client/types.ts';
import { mockKeys } from '../target.ts';

export function agentMockKeys(engine: Engine): Keys {
  const keys = mockKeys(engine);
  const all = engine.admin.listKeys();
  const org = all.find((k) => k.key === keys.read)?.organizationId;
  const readWrite =
    all.find((k) => k.organizationId === org && k.profile === 'read_write' && k.status === 'active')?.key ??
    undefined;
  return readWrite === undefined ? keys : { ...keys, readWrite };
}
