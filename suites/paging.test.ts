import { startRepliedMockTarget } from './target-replied.ts';
import { describeLaws } from './vitest-laws.ts';

describeLaws('paging', { 'paging.list-counts-at-edges': startRepliedMockTarget });
