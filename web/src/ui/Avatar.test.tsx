import { fireEvent, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../app/i18n';
import { Avatar, type AvatarProps } from './Avatar';

function renderAvatar(props: AvatarProps) {
  return render(
    <I18nextProvider i18n={createI18n('en')}>
      <Avatar {...props} />
    </I18nextProvider>,
  ).container;
}

const picture = '/_ipx/w_256&f_webp/avatars/u-1/p-1.webp';

describe('Avatar', () => {
  it('shows the initial of the display name when there is no picture', () => {
    const view = renderAvatar({ name: '  émile', src: null });
    expect(view.querySelector('img')).toBeNull();
    expect(view.textContent).toBe('É');
  });

  it('asks /_ipx for the size it shows, at density 1 and 2', () => {
    const view = renderAvatar({ name: 'Sam', src: picture, size: 'xl' });
    const image = view.querySelector('img')!;
    expect(image.getAttribute('src')).toBe('/_ipx/f_webp&w_96/avatars/u-1/p-1.webp');
    expect(image.getAttribute('srcset')).toBe(
      '/_ipx/f_webp&w_96/avatars/u-1/p-1.webp 1x, /_ipx/f_webp&w_192/avatars/u-1/p-1.webp 2x',
    );
    expect(view.textContent).toBe('');
  });

  it('falls back to the initial when the picture does not load', () => {
    const view = renderAvatar({ name: 'sam', src: picture, size: 'sm' });
    fireEvent.error(view.querySelector('img')!);
    expect(view.querySelector('img')).toBeNull();
    expect(view.textContent).toBe('S');
  });
});
