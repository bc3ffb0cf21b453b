/** A tiny XML writer: elements with text or child elements, every text and attribute escaped. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly content: string | readonly XmlElement[];
}

/** Falsy children are skipped, so that optional elements read inline (`bic && el(...)`). */
export type XmlChild = XmlElement | '' | false | null | undefined;

export function el(
  name: string,
  content: string | readonly XmlChild[],
  attributes: Record<string, string> = {},
): XmlElement {
  return {
    name,
    attributes,
    content:
      typeof content === 'string'
        ? content
        : content.filter((child): child is XmlElement => Boolean(child)),
  };
}

/** Escapes the five XML special characters and drops characters XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function renderElement(element: XmlElement, depth: number): string {
  const indent = '  '.repeat(depth);
  const attributes = Object.entries(element.attributes)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
  const open = `${indent}<${element.name}${attributes}>`;
  const close = `</${element.name}>`;
  if (typeof element.content === 'string') return `${open}${escapeXml(element.content)}${close}`;
  if (element.content.length === 0) return `${open}${close}`;
  const children = element.content.map((child) => renderElement(child, depth + 1)).join('\n');
  return `${open}\n${children}\n${indent}${close}`;
}

/** A UTF-8 XML document, indented by two spaces, ending with a newline. */
export function renderXmlDocument(root: XmlElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderElement(root, 0)}\n`;
}
