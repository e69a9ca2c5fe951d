import { metamorphicLaws } from './agent/metamorphic.ts';
import { describeAgentLaws } from './agent/vitest.ts';

// The status names are a choice the spec leaves open (docs/contract.md, "Where the spec is silent"):
// a deployment that names its statuses otherwise must show those names in its schemas too, so the
// laws that filter and group by status meet our mock with the alternate names as well.
describeAgentLaws('status filters and groupings with the alternate status names', metamorphicLaws, {
  choices: { actionStatuses: 'alternate' },
});
