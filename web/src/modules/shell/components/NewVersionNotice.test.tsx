import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../app/i18n';
import { NewVersionNotice, type NewVersionNoticeProps } from './NewVersionNotice';

function renderNotice(props: NewVersionNoticeProps) {
  return render(
    <I18nextProvider i18n={createI18n('en')}>
      <NewVersionNotice {...props} />
    </I18nextProvider>,
  );
}

describe('latest-build check', () => {
  it('says a new version is there once builds/latest.json names another build', async () => {
    const fetchLatest = vi
      .fn<() => Promise<string | null>>()
      .mockResolvedValueOnce('build-1')
      .mockResolvedValue('build-2');
    const reload = vi.fn();
    renderNotice({ currentBuildId: 'build-1', intervalMs: 20, fetchLatest, reload });
    expect(screen.queryByText(/new version/)).toBeNull();
    const text = await screen.findByText('A new version of the app is available.');
    expect(fetchLatest.mock.calls.length).toBeGreaterThanOrEqual(2);
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
    // It stops asking once it knows (a tick may fire before the passive effect's clean-up).
    const calls = fetchLatest.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetchLatest.mock.calls.length).toBeLessThanOrEqual(calls + 1);
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(text.isConnected).toBe(false);
  });

  it('stays quiet while the build is the latest, or the manifest cannot be read', async () => {
    const fetchLatest = vi
      .fn<() => Promise<string | null>>()
      .mockResolvedValueOnce('build-1')
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(null);
    renderNotice({ currentBuildId: 'build-1', intervalMs: 10, fetchLatest });
    await waitFor(() => expect(fetchLatest.mock.calls.length).toBeGreaterThanOrEqual(4));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('does not check without a build id (dev server, tests)', async () => {
    const fetchLatest = vi.fn<() => Promise<string | null>>().mockResolvedValue('other');
    renderNotice({ currentBuildId: undefined, intervalMs: 10, fetchLatest });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(fetchLatest).not.toHaveBeenCalled();
  });
});
