import { describeLaws } from './vitest-laws.ts';

describeLaws('identity');
