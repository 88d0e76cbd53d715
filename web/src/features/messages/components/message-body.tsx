import { splitLinks } from '../utils/linkify';

/** A message's text as written (line breaks kept), its http(s) URLs as links opening in a new tab.
 * Only text nodes and `<a>` elements: no HTML from a person is ever rendered. */
export function MessageBody({ body }: { body: string }) {
  return (
    <p className="whitespace-pre-wrap break-words">
      {splitLinks(body).map((part, i) =>
        part.kind === 'link' ? (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="underline underline-offset-2"
          >
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
