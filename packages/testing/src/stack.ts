// The test helpers find the local stack through the scripts' single source of ports.
import { stackUrls } from '../../../scripts/lib/stack-config.mjs';

export type StackInfo = ReturnType<typeof stackUrls>;

export const stack: StackInfo = stackUrls();
