import { startRepliedMockTarget } from './target-replied.ts';
import { describeLaws } from './vitest-laws.ts';

describeLaws('parameters', {
  'parameters.tag-volume-responded-only': startRepliedMockTarget,
  'analytics.engagement-users': startRepliedMockTarget,
});
