import { backendTestConfig } from '../../packages/testing/src/vitest.ts';

export default backendTestConfig();
