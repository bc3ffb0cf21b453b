/** The create flow's two steps, in order. */
export const STEPS = [
  { path: '/challenge/create/step-1', key: 'step1' },
  { path: '/challenge/create/step-2', key: 'step2' },
] as const;

export const STEP_1_PATH = '/challenge/create/step-1';
export const STEP_2_PATH = '/challenge/create/step-2';
