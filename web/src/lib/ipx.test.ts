import { describe, expect, it } from 'vitest';
import { ipxAt, ipxImage, ipxWidth } from './ipx';

const avatar = '/_ipx/w_256&f_webp/avatars/u-1/p-1.webp';

describe('ipx', () => {
  it('picks the smallest width media makes that covers the pixels', () => {
    expect(ipxWidth(32)).toBe(32);
    expect(ipxWidth(40)).toBe(48);
    expect(ipxWidth(88)).toBe(96);
    expect(ipxWidth(176)).toBe(192);
    expect(ipxWidth(5000)).toBe(2048);
  });

  it('rewrites only the width of an /_ipx URL', () => {
    expect(ipxAt(avatar, 96)).toBe('/_ipx/f_webp&w_96/avatars/u-1/p-1.webp');
    expect(ipxAt('https://site.example/_ipx/w_256,f_webp,q_80/avatars/a.webp', 64)).toBe(
      'https://site.example/_ipx/f_webp&q_80&w_64/avatars/a.webp',
    );
    expect(ipxAt('https://cdn.example/a.png', 64)).toBe('https://cdn.example/a.png');
  });

  it('gives density 1 and 2 as a srcset', () => {
    expect(ipxImage(avatar, 40)).toEqual({
      src: '/_ipx/f_webp&w_48/avatars/u-1/p-1.webp',
      srcSet:
        '/_ipx/f_webp&w_48/avatars/u-1/p-1.webp 1x, /_ipx/f_webp&w_96/avatars/u-1/p-1.webp 2x',
    });
    expect(ipxImage('blob:http://x/1', 40)).toEqual({ src: 'blob:http://x/1' });
  });
});
