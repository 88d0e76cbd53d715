/**
 * A message is plain text. Its http(s) URLs become links and everything else stays text: the
 * body is split into parts here and rendered as text nodes and `<a>` elements, never as HTML.
 */

export type BodyPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** An http(s) URL up to the next space or angle bracket. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+/gi;

/** Punctuation that ends a sentence rather than the URL ("see https://x.org."). */
const TRAILING = '.,;:!?\'")]}';

const count = (text: string, char: string) => text.split(char).length - 1;

/** The URL without the sentence's punctuation after it; a closing bracket the URL opened stays
 * ("https://en.wikipedia.org/wiki/Jump_shot_(basketball)"). */
function trimTrailing(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.at(-1);
    if (!last || !TRAILING.includes(last)) return url;
    if (last === ')' && count(url, '(') >= count(url, ')')) return url;
    url = url.slice(0, -1);
  }
}

/** The URL a link may point to: only http(s) that the browser parses, else null. */
export function safeHref(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Splits a body into text and links, in order; joining the parts' `text` gives the body back. */
export function splitLinks(body: string): BodyPart[] {
  const parts: BodyPart[] = [];
  let last = 0;
  const pushText = (text: string) => {
    if (!text) return;
    const previous = parts.at(-1);
    if (previous?.kind === 'text') previous.text += text;
    else parts.push({ kind: 'text', text });
  };
  for (const match of body.matchAll(URL_PATTERN)) {
    const start = match.index;
    const candidate = trimTrailing(match[0]);
    const href = safeHref(candidate);
    pushText(body.slice(last, start));
    if (href) parts.push({ kind: 'link', text: candidate, href });
    else pushText(candidate);
    last = start + candidate.length;
  }
  pushText(body.slice(last));
  return parts;
}
