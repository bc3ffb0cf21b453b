/**
 * Images of the site's resizing path (`/_ipx/<modifiers>/<source>`, docs/adr/0039): the API
 * gives one URL (an avatar at 256 px); a page asks for the width it shows, at density 1 and 2.
 * Only the widths media makes exist; anything else would be refused.
 */
export const IPX_WIDTHS = [
  16, 24, 32, 48, 64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048,
] as const;

const IPX_URL = /^((?:https?:\/\/[^/]+)?\/_ipx\/)([^/]+)(\/.+)$/;

/** The smallest width media makes that covers `pixels` (the largest when none does). */
export function ipxWidth(pixels: number): number {
  return IPX_WIDTHS.find((width) => width >= pixels) ?? IPX_WIDTHS[IPX_WIDTHS.length - 1]!;
}

/** `src` at another width; anything that is not an /_ipx URL comes back unchanged. */
export function ipxAt(src: string, width: number): string {
  const match = IPX_URL.exec(src);
  if (!match) return src;
  const modifiers = match[2]!
    .split(/[&,]/)
    .filter((modifier) => !modifier.startsWith('w_'))
    .concat(`w_${width}`)
    .sort()
    .join('&');
  return `${match[1]}${modifiers}${match[3]}`;
}

/**
 * `src` and `srcSet` of an image shown `cssPixels` wide: the /_ipx widths for density 1 and 2.
 * A URL of anything else is used as it is.
 */
export function ipxImage(src: string, cssPixels: number): { src: string; srcSet?: string } {
  if (!IPX_URL.test(src)) return { src };
  const one = ipxAt(src, ipxWidth(cssPixels));
  const two = ipxAt(src, ipxWidth(cssPixels * 2));
  return { src: one, srcSet: `${one} 1x, ${two} 2x` };
}
