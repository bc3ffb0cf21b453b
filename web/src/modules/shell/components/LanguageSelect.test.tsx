import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from '../../../app/i18n';
import { loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';

describe('language dropdown', () => {
  it('switches the interface to Dutch and remembers the choice', async () => {
    renderApp({ path: '/', mocks: [loggedOutMock()] });
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const select = await within(sidebar).findByRole<HTMLSelectElement>('combobox', {
      name: 'Language',
    });
    expect(select.value).toBe('en');

    fireEvent.change(select, { target: { value: 'nl' } });

    expect(await within(sidebar).findByRole('link', { name: 'Start een challenge' })).toBeTruthy();
    expect(within(sidebar).getByRole<HTMLSelectElement>('combobox', { name: 'Taal' }).value).toBe(
      'nl',
    );
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('nl');
    expect(document.documentElement.lang).toBe('nl');
    // The server's copy, from which the gateway picks the prerendered pages' language.
    expect(document.cookie).toContain('language=nl');
  });
});
