import { startRepliedMockTarget } from './target-replied.ts';
import { describeLaws } from './vitest-laws.ts';

describeLaws('schemas', { 'schemas.response-times-paired': startRepliedMockTarget });
