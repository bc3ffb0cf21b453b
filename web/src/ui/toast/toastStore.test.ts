import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createToastStore,
  TOAST_DURATION_MS,
  TOAST_ERROR_DEDUPE_MS,
  TOAST_MAX,
} from './toastStore';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const messages = (store: ReturnType<typeof createToastStore>) =>
    store.getSnapshot().map((toast) => toast.message);

  it('uses the product limits: 5000 ms, at most 20, errors deduplicated for 3000 ms', () => {
    expect([TOAST_DURATION_MS, TOAST_MAX, TOAST_ERROR_DEDUPE_MS]).toEqual([5000, 20, 3000]);
  });

  it('suppresses an identical error shown less than 3000 ms ago', () => {
    const store = createToastStore();
    expect(store.error('Challenge not found')).not.toBeNull();
    vi.advanceTimersByTime(2999);
    expect(store.error('Challenge not found')).toBeNull();
    expect(messages(store)).toEqual(['Challenge not found']);
  });

  it('shows the same error again once 3000 ms have passed', () => {
    const store = createToastStore();
    store.error('Too many requests');
    vi.advanceTimersByTime(3000);
    expect(store.error('Too many requests')).not.toBeNull();
    expect(messages(store)).toEqual(['Too many requests', 'Too many requests']);
  });

  it('does not deduplicate different errors, nor non-error toasts', () => {
    const store = createToastStore();
    store.error('A');
    store.error('B');
    store.success('Saved');
    store.success('Saved');
    expect(messages(store)).toEqual(['A', 'B', 'Saved', 'Saved']);
  });

  it('removes a toast after 5000 ms', () => {
    const store = createToastStore();
    store.info('Hello');
    vi.advanceTimersByTime(4999);
    expect(messages(store)).toEqual(['Hello']);
    vi.advanceTimersByTime(1);
    expect(messages(store)).toEqual([]);
  });

  it('keeps at most 20 toasts, dropping the oldest', () => {
    const store = createToastStore();
    for (let index = 1; index <= 25; index += 1) store.info(`toast ${index}`);
    expect(store.getSnapshot()).toHaveLength(20);
    expect(messages(store)[0]).toBe('toast 6');
    expect(messages(store)[19]).toBe('toast 25');
  });

  it('stops the clock while paused and resumes with the time that was left', () => {
    const store = createToastStore();
    const id = store.info('Hover me');
    expect(id).not.toBeNull();
    vi.advanceTimersByTime(4000);
    store.pause(id ?? -1);
    vi.advanceTimersByTime(60_000);
    expect(messages(store)).toEqual(['Hover me']);
    store.resume(id ?? -1);
    vi.advanceTimersByTime(999);
    expect(messages(store)).toEqual(['Hover me']);
    vi.advanceTimersByTime(1);
    expect(messages(store)).toEqual([]);
  });

  it('notifies subscribers and dismisses on request', () => {
    const store = createToastStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const id = store.success('Done');
    store.dismiss(id ?? -1);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(messages(store)).toEqual([]);
    unsubscribe();
    store.success('Again');
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
