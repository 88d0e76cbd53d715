import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { mockApi } from '@/testing/mock-api';
import { makeUser } from '@/testing/test-utils';
import type { Booking } from '../api/get-bookings';
import { AddToCalendarButton } from './add-to-calendar-button';

const booking = {
  booking_id: 'b-1',
  booking_date: '2099-03-14',
} as Booking;

function renderButton(api: Record<string, unknown>) {
  localStorage.setItem('token', 'test-token');
  // Signed in: the app checks the stored token before it shows anything.
  const mocks = mockApi({ 'GET /auth/me': makeUser(), ...api });
  render(
    <AppProvider>
      <AddToCalendarButton booking={booking} withWhom="Maya Thompson" />
    </AppProvider>,
  );
  return { ...mocks, user: userEvent.setup() };
}

describe('Add to Calendar', () => {
  it("downloads the booking's .ics with the token, under a name with its date", async () => {
    const createObjectURL = vi.fn(() => 'blob:ics');
    // jsdom has no object URLs: the file's URL is a stand-in.
    Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`);
    });
    const { calls, user } = renderButton({ 'GET /bookings/b-1/ics': 'BEGIN:VCALENDAR' });

    await user.click(await screen.findByRole('button', { name: 'Add to Calendar: Maya Thompson, Sat, Mar 14, 2099' }));

    await waitFor(() => expect(saved).toEqual(['courtside-session-2099-03-14.ics blob:ics']));
    const ics = calls.find((call) => call.path === '/bookings/b-1/ics');
    expect(ics?.headers.Authorization).toBe('Bearer test-token');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
  });

  it("says why when the file cannot be had", async () => {
    const { user } = renderButton({
      'GET /bookings/b-1/ics': { status: 404, body: { detail: 'this booking does not exist' } },
    });

    await user.click(await screen.findByRole('button', { name: /^Add to Calendar/ }));

    expect(await screen.findByText('this booking does not exist')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Add to Calendar/ })).toBeEnabled();
  });
});
