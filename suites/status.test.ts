import { describeLaws } from './vitest-laws.ts';

describeLaws('status');
