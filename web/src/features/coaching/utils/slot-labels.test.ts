import { describe, expect, it } from 'vitest';
import { courtLabel } from './slot-labels';

describe('courtLabel', () => {
  it('names a bare court number as a court', () => {
    expect(courtLabel('2')).toBe('Court 2');
    expect(courtLabel(' B ')).toBe('Court B');
  });

  it('keeps a court number that already says court, whatever the case', () => {
    expect(courtLabel('Court 2')).toBe('Court 2');
    expect(courtLabel('court A')).toBe('court A');
  });

  it('says nothing when there is no court number', () => {
    expect(courtLabel('')).toBe('');
    expect(courtLabel('   ')).toBe('');
    expect(courtLabel(null)).toBe('');
  });

  it('does not mistake a word that starts with court for the label', () => {
    expect(courtLabel('Courtyard')).toBe('Court Courtyard');
  });
});
