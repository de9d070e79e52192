// The vitest configuration Stryker runs: the project's own, limited to the test files of the module under mutation
// (STRYKER_TESTS, set by stryker.config.mjs).
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const tests = (process.env['STRYKER_TESTS'] ?? '').split(',').filter((t) => t !== '');

export default defineConfig({ ...base, test: { ...base.test, include: tests.length > 0 ? tests : ['no-tests-selected'] } });
