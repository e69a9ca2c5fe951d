import { describeLaws } from './vitest-laws.ts';

describeLaws('paging');
