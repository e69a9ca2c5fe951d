import { describeLaws } from './vitest-laws.ts';

describeLaws('custom-fields');
