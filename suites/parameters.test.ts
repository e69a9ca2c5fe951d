import { describeLaws } from './vitest-laws.ts';

describeLaws('parameters');
