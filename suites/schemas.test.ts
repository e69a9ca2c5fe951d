import { describeLaws } from './vitest-laws.ts';

describeLaws('schemas');
