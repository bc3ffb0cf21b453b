import type { Locale } from './messages.ts';

/**
 * The one layout every e-mail shares, as HTML and as plain text. It takes plain strings only and
 * escapes each one where it places it, so no value (a username, a link) can inject markup.
 */
export interface EmailContent {
  locale: Locale;
  subject: string;
  /** The line mail clients show beside the subject; hidden in the body. */
  preheader: string;
  heading: string;
  /** Paragraphs before the code. */
  intro: string[];
  /** A one-time code, shown large. */
  code?: { value: string; textLabel: string };
  action: { intro?: string; label: string; url: string; rawLinkIntro: string };
  /** Paragraphs after the button: expiry, what to do when it was not you. */
  outro: string[];
  signature: string;
  footer: string;
  /**
   * Mail that e-mail preferences cover (not transactional mail) says why it came and links to the
   * preferences page, which also becomes the List-Unsubscribe header.
   */
  unsubscribe?: { intro: string; label: string; url: string };
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** The preferences page, for the List-Unsubscribe header; absent on transactional mail. */
  unsubscribeUrl?: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Links in e-mail go to web pages only: never javascript:, data: or the like. */
export function assertWebLink(url: string): string {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error('the e-mail link is not a URL');
  }
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new Error(`the e-mail link must be http(s), not ${protocol}`);
  }
  return url;
}

export function renderLayout(content: EmailContent): RenderedEmail {
  const url = assertWebLink(content.action.url);
  const unsubscribeUrl = content.unsubscribe ? assertWebLink(content.unsubscribe.url) : undefined;
  return {
    subject: content.subject,
    text: renderText(content, url),
    html: renderHtml(content, url),
    ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
  };
}

function renderText(content: EmailContent, url: string): string {
  const blocks = [
    content.heading,
    ...content.intro,
    ...(content.code ? [content.code.textLabel] : []),
    [content.action.intro, `${content.action.label}: ${url}`].filter(Boolean).join('\n'),
    ...content.outro,
    `-- \n${content.signature}\n${content.footer}`,
    ...(content.unsubscribe
      ? [`${content.unsubscribe.intro}\n${content.unsubscribe.label}: ${content.unsubscribe.url}`]
      : []),
  ];
  return `${blocks.join('\n\n')}\n`;
}

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const paragraph = (text: string) =>
  `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2933">${escapeHtml(text)}</p>`;

function unsubscribeHtml(unsubscribe: EmailContent['unsubscribe']): string {
  if (!unsubscribe) return '';
  return `<br><br>${escapeHtml(unsubscribe.intro)} <a href="${escapeHtml(unsubscribe.url)}" style="color:#52606d">${escapeHtml(unsubscribe.label)}</a>`;
}

function renderHtml(content: EmailContent, url: string): string {
  const href = escapeHtml(url);
  const code = content.code
    ? `<p style="margin:8px 0 24px;text-align:center"><span style="display:inline-block;padding:12px 20px;border-radius:8px;background:#f1f5f9;font-family:'SFMono-Regular',Consolas,'Liberation Mono',monospace;font-size:36px;line-height:44px;font-weight:700;letter-spacing:8px;color:#111827">${escapeHtml(content.code.value)}</span></p>`
    : '';
  return `<!doctype html>
<html lang="${content.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeHtml(content.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;${FONT}">
<tr><td style="padding:32px 32px 8px">
<h1 style="margin:0 0 24px;font-size:24px;line-height:32px;color:#111827">${escapeHtml(content.heading)}</h1>
${content.intro.map(paragraph).join('\n')}
${code}
${content.action.intro ? paragraph(content.action.intro) : ''}
<p style="margin:0 0 24px;text-align:center"><a href="${href}" style="display:inline-block;padding:14px 28px;border-radius:8px;background:#e11d48;color:#ffffff;font-size:16px;font-weight:600;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 4px;font-size:14px;line-height:20px;color:#52606d">${escapeHtml(content.action.rawLinkIntro)}</p>
<p style="margin:0 0 24px;font-size:14px;line-height:20px;word-break:break-all"><a href="${href}" style="color:#1d4ed8">${href}</a></p>
${content.outro.map(paragraph).join('\n')}
<p style="margin:0 0 24px;font-size:16px;line-height:24px;color:#1f2933">${escapeHtml(content.signature)}</p>
</td></tr>
<tr><td style="padding:16px 32px 32px;border-top:1px solid #e5e7eb;font-size:12px;line-height:18px;color:#7b8794">${escapeHtml(content.footer)}${unsubscribeHtml(content.unsubscribe)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
