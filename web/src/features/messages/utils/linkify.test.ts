import { describe, expect, it } from 'vitest';
import { splitLinks } from './linkify';

describe('splitLinks', () => {
  it('keeps a body without links as one text part', () => {
    expect(splitLinks('Can we work on my jump shot?')).toEqual([{ kind: 'text', text: 'Can we work on my jump shot?' }]);
  });

  it('turns http and https URLs into links and leaves the sentence around them as text', () => {
    expect(splitLinks('Court map: https://gym.example.com/map?x=1. Or http://a.example')).toEqual([
      { kind: 'text', text: 'Court map: ' },
      { kind: 'link', text: 'https://gym.example.com/map?x=1', href: 'https://gym.example.com/map?x=1' },
      { kind: 'text', text: '. Or ' },
      { kind: 'link', text: 'http://a.example', href: 'http://a.example/' },
    ]);
  });

  it('keeps a closing bracket the URL opened and drops one the sentence opened', () => {
    expect(splitLinks('(see https://en.wikipedia.org/wiki/Jump_shot_(basketball))')).toEqual([
      { kind: 'text', text: '(see ' },
      {
        kind: 'link',
        text: 'https://en.wikipedia.org/wiki/Jump_shot_(basketball)',
        href: 'https://en.wikipedia.org/wiki/Jump_shot_(basketball)',
      },
      { kind: 'text', text: ')' },
    ]);
  });

  it('never links another scheme', () => {
    const parts = splitLinks('javascript:alert(1) data:text/html,<b>x</b> ftp://files.example');
    expect(parts.every((p) => p.kind === 'text')).toBe(true);
  });

  it('gives the body back when the parts are joined', () => {
    const body = '<script>alert("x")</script> https://x.example/a<b>c and "https://y.example"';
    expect(
      splitLinks(body)
        .map((p) => p.text)
        .join(''),
    ).toBe(body);
  });
});
