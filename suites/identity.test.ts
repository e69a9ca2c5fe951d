import { startRawPathMockTarget } from './target.ts';
import { describeLaws } from './vitest-laws.ts';

describeLaws('identity', { 'identity.raw-path-characters': startRawPathMockTarget });
