import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../app/i18n';
import { createToastStore } from './toastStore';
import { ToastProvider } from './Toasts';

const css = (file: string) => readFileSync(resolve(__dirname, file), 'utf8');

function renderToasts() {
  const store = createToastStore();
  render(
    <I18nextProvider i18n={createI18n('en')}>
      <ToastProvider store={store}>
        <p>page</p>
      </ToastProvider>
    </I18nextProvider>,
  );
  return store;
}

describe('toasts cover nothing (issue 22, point 13)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.documentElement.style.removeProperty('--toast-band');
  });

  it('take a band of their own: its height moves the page down while one shows', () => {
    // jsdom lays nothing out: the band is as tall as the browser would make it.
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.dataset['toastBand'] !== undefined && this.childElementCount > 0 ? 64 : 0;
    });
    const store = renderToasts();
    const band = () => document.documentElement.style.getPropertyValue('--toast-band');
    expect(band()).toBe('0px');
    let id: number | null = null;
    act(() => {
      id = store.success('Saved');
    });
    expect(band()).toBe('64px');
    act(() => store.dismiss(id ?? -1));
    expect(band()).toBe('0px');
  });

  it('everything fixed or sticky at the top starts below the band', () => {
    expect(css('../theme.css')).toMatch(/body \{[^}]*padding-top: var\(--toast-band, 0px\)/);
    expect(css('../../modules/shell/components/TopBar.module.css')).toMatch(
      /\.topBar \{[^}]*top: var\(--toast-band, 0px\)/,
    );
    expect(css('../Modal.module.css')).toMatch(
      /\.backdrop \{[^}]*inset: var\(--toast-band, 0px\) 0 0/,
    );
    expect(css('../../modules/shell/components/MobileMenu.module.css')).toMatch(
      /\.menu \{[^}]*inset: var\(--toast-band, 0px\) 0 0/,
    );
    expect(css('../../app/layouts/Layouts.module.css')).toMatch(
      /\.sidebar \{[^}]*top: var\(--toast-band, 0px\)/,
    );
    expect(css('./Toasts.module.css')).toMatch(/\.viewport \{[^}]*top: 0/);
  });

  it('a toast is a status (or an alert) of its own, not a list item with a role (axe)', () => {
    const store = renderToasts();
    act(() => {
      store.success('Saved');
      store.error('Refused');
    });
    expect(screen.getByRole('status').tagName).not.toBe('LI');
    expect(screen.getByRole('alert').tagName).not.toBe('LI');
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });
});
