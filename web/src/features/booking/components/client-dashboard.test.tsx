import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { clientDashboardApi } from '@/testing/dashboards';
import { booking } from '@/testing/fixtures';
import { currentPath, makeUser, renderApp } from '@/testing/test-utils';
import type { ClientProfile } from '../api/get-client-profile';

const client = makeUser({ user_id: 'client-1', full_name: 'Casey Jordan' });

function profile(overrides: Partial<ClientProfile> = {}): ClientProfile {
  return {
    user_id: 'client-1',
    age: 15,
    grade: '10th',
    sport: 'Basketball',
    skill_level: 'intermediate',
    profile_picture_url: '/uploads/casey.png',
    ...overrides,
  };
}

function policy() {
  return {
    min_notice_minutes: 0,
    max_advance_days: 365,
    response_window_minutes: 2880,
    cancellation_window_minutes: 1440,
  };
}

describe('the client dashboard', () => {
  it('welcomes the client by first name, with the tiles and the empty states', async () => {
    const { user, router } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({ 'GET /coaches': [] }),
    });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Casey!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Courtside home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Find Coaches' })).toHaveAttribute('href', '/coaches');
    expect(screen.getByText('Casey Jordan')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Find a Coach/ })).toHaveAttribute('href', '/coaches');
    expect(screen.getByText('My Bookings')).toBeInTheDocument();
    expect(screen.getByText('Locations')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /My Bookings|Locations/ })).not.toBeInTheDocument();
    expect(await screen.findByText('No bookings yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Book a Session' })).toHaveAttribute('href', '/coaches');
    expect(
      await screen.findByText('No profile created yet. Click "Create Profile" to get started.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Browse Coaches' }));
    await waitFor(() => expect(currentPath(router)).toBe('/coaches'));
  });

  it('lists bookings with coach, date, times, place, status and payment', async () => {
    renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /bookings': [
          booking({ booking_id: 'p', status: 'pending' }),
          booking({ booking_id: 'c', status: 'confirmed', coach_name: 'Leo Park', location_name: 'North Gym' }),
          booking({ booking_id: 'x', status: 'cancelled', coach_name: 'Ana Diaz' }),
        ],
      }),
    });
    const items = await screen.findAllByTestId('booking');
    expect(items).toHaveLength(3);
    const [pending, confirmed, cancelled] = items;
    expect(pending).toHaveTextContent('Maya Thompson');
    expect(pending).toHaveTextContent('Fri, Mar 14, 2025');
    expect(pending).toHaveTextContent('17:00 – 18:00');
    expect(pending).toHaveTextContent('Eastside Rec');
    expect(within(confirmed).getByTestId('booking-status')).toHaveTextContent('confirmed');
    expect(within(confirmed).getByTestId('booking-status').className).toMatch(/green/);
    expect(within(pending).getByTestId('booking-status').className).not.toMatch(/green/);
    expect(within(confirmed).getByTestId('booking-payment')).toHaveTextContent('$65.00Not held yet');
    expect(within(pending).getByRole('button', { name: 'Cancel Booking' })).toBeInTheDocument();
    expect(within(confirmed).getByRole('button', { name: 'Cancel Booking' })).toBeInTheDocument();
    expect(within(cancelled).queryByRole('button', { name: 'Cancel Booking' })).not.toBeInTheDocument();
    expect(within(cancelled).getByTestId('booking-status')).toHaveTextContent('cancelled');
  });

  it('cancels a booking, with a reason, after asking, and shows the list again', async () => {
    let cancelled = false;
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /bookings': () => [booking({ status: cancelled ? 'cancelled' : 'confirmed' })],
        'GET /coach/policy/coach-1': policy(),
        'PATCH /bookings/b-1/cancel': () => {
          cancelled = true;
          return { status: 200, body: booking({ status: 'cancelled' }) };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    // Far from the session: nothing late to warn about.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel Booking' })).toBeEnabled());
    expect(within(dialog).queryByTestId('late-cancellation-warning')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason for the coach (optional)'), 'Sprained ankle');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Booking' }));
    expect(await screen.findByText('Booking cancelled successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH' && c.path === '/bookings/b-1/cancel')?.body).toEqual({
      reason: 'Sprained ankle',
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel Booking' })).not.toBeInTheDocument());
  });

  it('keeps the booking when the client steps back', async () => {
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({ 'GET /bookings': [booking()] }),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Booking' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it("warns before a cancel inside the coach's cancellation window", async () => {
    // 3 hours ahead, booked under a 24-hour window: the booking says so, whatever the policy now is.
    const soon = new Date(Date.now() + 3 * 3600_000);
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /bookings': [
          booking({
            status: 'confirmed',
            starts_at: soon.toISOString(),
            free_cancellation_until: new Date(soon.getTime() - 24 * 3600_000).toISOString(),
          }),
        ],
        'PATCH /bookings/b-1/cancel': { status: 200, body: booking({ status: 'cancelled', late_cancellation: true }) },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    expect(await within(dialog).findByTestId('late-cancellation-warning')).toHaveTextContent(
      'This is a late cancellation: free cancellation ends 24 hours before the session. Maya Thompson will see it marked late.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Booking' }));
    expect(await screen.findByText('Booking cancelled successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toBeUndefined();
  });

  it('says so when a booking cannot be cancelled, and stays open', async () => {
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({ 'GET /bookings': [booking()], 'PATCH /bookings/b-1/cancel': { status: 500, body: {} } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Booking' }));
    expect(await screen.findByText('Failed to cancel booking')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Cancel this booking?' })).toBeInTheDocument();
  });

  it('shows expired, completed, no-show and late-cancelled bookings distinctly, with no cancel', async () => {
    renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /bookings': [
          booking({ booking_id: 'e', status: 'expired' }),
          booking({ booking_id: 'd', status: 'completed', starts_at: '2025-03-14T22:00:00Z', ends_at: '2025-03-14T23:00:00Z' }),
          booking({ booking_id: 'n', status: 'no_show', starts_at: '2025-03-14T22:00:00Z', ends_at: '2025-03-14T23:00:00Z' }),
          booking({ booking_id: 'l', status: 'cancelled', late_cancellation: true, cancelled_by: 'client' }),
          booking({ booking_id: 'k', status: 'cancelled', cancelled_by: 'coach', cancellation_reason: 'Gym closed' }),
          booking({ booking_id: 's', status: 'confirmed', starts_at: '2025-03-14T22:00:00Z', ends_at: '2099-03-14T23:00:00Z' }),
        ],
      }),
    });
    const [expired, completed, noShow, late, byCoach, started] = await screen.findAllByTestId('booking');
    const status = (item: HTMLElement) => within(item).getByTestId('booking-status');
    expect(status(expired)).toHaveTextContent('expired');
    expect(status(completed)).toHaveTextContent('completed');
    expect(status(noShow)).toHaveTextContent('no-show');
    const colours = [expired, completed, noShow, late].map((item) => status(item).className);
    expect(new Set(colours).size).toBe(4);
    expect(within(late).getByTestId('late-cancellation')).toHaveTextContent('Late cancellation');
    expect(within(expired).queryByTestId('late-cancellation')).not.toBeInTheDocument();
    expect(byCoach).toHaveTextContent('Cancelled by the coach: Gym closed');
    // A session that has started can no longer be cancelled.
    for (const item of [expired, completed, noShow, late, byCoach, started]) {
      expect(within(item).queryByRole('button', { name: 'Cancel Booking' })).not.toBeInTheDocument();
    }
  });

  it("names the place's zone when the client's browser keeps another", async () => {
    renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /bookings': [booking({ time_zone: 'Asia/Tokyo', starts_at: '2099-03-14T08:00:00Z', ends_at: '2099-03-14T09:00:00Z' })],
      }),
    });
    expect(await screen.findByTestId('booking-time')).toHaveTextContent(/^17:00 – 18:00 GMT\+9$/);
  });

  it('shows the profile with its picture and "Not set" for empty fields', async () => {
    renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({ 'GET /client/profile/client-1': profile({ grade: null }) }),
    });
    expect(await screen.findByRole('img', { name: 'Profile picture' })).toHaveAttribute('src', '/uploads/casey.png');
    expect(screen.getByText('15')).toBeInTheDocument();
    expect(screen.getByText('Intermediate')).toBeInTheDocument();
    expect(screen.getByText('Not set')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
  });

  it('creates a profile with POST: age an integer, empty fields null, the uploaded picture', async () => {
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'POST /client/upload-profile-picture': { status: 201, body: { profile_picture_url: '/uploads/new.png' } },
        'POST /client/profile': { status: 201, body: profile() },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Create Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Profile' });
    await user.type(within(dialog).getByLabelText('Age'), '15.7');
    await user.type(within(dialog).getByLabelText('Sport'), 'Volleyball');
    await user.click(within(dialog).getByRole('combobox', { name: 'Skill Level' }));
    await user.click(await screen.findByRole('option', { name: 'Advanced' }));
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText('Profile Picture'), png);
    expect(await screen.findByText('Profile picture uploaded successfully')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Profile picture' })).toHaveAttribute('src', '/uploads/new.png');
    const upload = calls.find((c) => c.path === '/client/upload-profile-picture');
    expect((upload?.body as FormData).get('file')).toBeInstanceOf(File);

    await user.click(within(dialog).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Profile saved successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/client/profile')?.body).toEqual({
      age: 15,
      grade: null,
      sport: 'Volleyball',
      skill_level: 'advanced',
      profile_picture_url: '/uploads/new.png',
    });
  });

  it('updates an existing profile with PUT', async () => {
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({ 'GET /client/profile/client-1': profile(), 'PUT /client/profile': profile({ grade: '11th' }) }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Profile' });
    const grade = within(dialog).getByLabelText('Grade');
    await user.clear(grade);
    await user.type(grade, '11th');
    await user.click(within(dialog).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Profile saved successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ grade: '11th', age: 15 });
  });

  it('refuses a file that is not an image, and one of 5 MB and a byte, before uploading', async () => {
    const { user, calls } = renderApp('/client/dashboard', { user: client, api: clientDashboardApi() });
    await user.click(await screen.findByRole('button', { name: 'Create Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Profile' });
    const input = within(dialog).getByLabelText('Profile Picture');

    // A person can pick "All files" in the browser's file chooser, past the input's accept.
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.change(input, { target: { files: [text] } });
    expect(await screen.findByText('Please select an image file')).toBeInTheDocument();

    const huge = new File([new Uint8Array(5242881)], 'huge.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [huge] } });
    expect(await screen.findByText('Image size must be less than 5MB')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/client/upload-profile-picture')).toBe(false);
  });

  it('says so when the upload or the save fails', async () => {
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'POST /client/upload-profile-picture': { status: 502, body: {} },
        'POST /client/profile': { status: 500, body: {} },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Create Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Profile' });
    const png = new File([new Uint8Array(10)], 'me.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText('Profile Picture'), png);
    expect(await screen.findByText('Failed to upload image')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Failed to save profile')).toBeInTheDocument();
  });
});
