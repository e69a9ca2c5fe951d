// A consumer's vitest setup file (vitest.config.mjs `setupFiles`): the mock for every test file, the
// test that breaks the contract failed, the mock reset before each test.
import { setupMock } from 'cca-kit/vitest';

setupMock({ resetEachTest: true });
