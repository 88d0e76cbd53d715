import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RatingSummary, ratingText } from './rating-summary';

describe('a coach rating on a card', () => {
  it('reads "4.8 · 23 reviews", one decimal, and "1 review" alone', () => {
    expect(ratingText(4.8, 23)).toBe('4.8 · 23 reviews');
    expect(ratingText(5, 1)).toBe('5.0 · 1 review');
  });

  it('says "New coach" without reviews', () => {
    render(<RatingSummary average={null} count={0} />);
    expect(screen.getByTestId('rating-summary')).toHaveTextContent('New coach');
  });
});
