import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { mockApi } from '@/testing/mock-api';
import { makeUser } from '@/testing/test-utils';
import { CalendarSubscriptionCard } from './calendar-subscription-card';

const FIRST = 'https://courtside.example/api/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics';
const SECOND = 'https://courtside.example/api/calendar/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.ics';

function renderCard(api: Record<string, unknown>) {
  localStorage.setItem('token', 'test-token');
  // Signed in: the app checks the stored token before it shows anything.
  const mocks = mockApi({ 'GET /auth/me': makeUser(), ...api });
  render(
    <AppProvider swr={{ dedupingInterval: 0 }}>
      <CalendarSubscriptionCard />
    </AppProvider>,
  );
  return { ...mocks, user: userEvent.setup() };
}

const feedCalls = (calls: { method: string; path: string }[], method: string) =>
  calls.filter((c) => c.method === method && c.path === '/calendar/feed');

describe('Subscribe to my calendar', () => {
  it('asks for the link only when opened, shows it to copy and to open in a calendar app', async () => {
    const { calls, user } = renderCard({ 'GET /calendar/feed': { url: FIRST } });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const subscribe = await screen.findByRole('button', { name: 'Subscribe to my calendar' });
    expect(feedCalls(calls, 'GET')).toHaveLength(0);

    await user.click(subscribe);

    const dialog = await screen.findByRole('dialog', { name: 'Subscribe to my calendar' });
    const link = await within(dialog).findByRole('textbox', { name: 'Calendar link' });
    expect(link).toHaveValue(FIRST);
    expect(link).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('link', { name: 'Open in my calendar app' })).toHaveAttribute(
      'href',
      FIRST.replace('https://', 'webcal://'),
    );
    expect(within(dialog).getByText(/Anyone with this link can see your sessions/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy Link' }));
    expect(writeText).toHaveBeenCalledWith(FIRST);
    expect(await screen.findByText('Calendar link copied')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('resets the link only once confirmed, then shows the new one', async () => {
    const { calls, user } = renderCard({
      'GET /calendar/feed': { url: FIRST },
      'POST /calendar/feed': { url: SECOND },
    });
    await user.click(await screen.findByRole('button', { name: 'Subscribe to my calendar' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue(FIRST);

    await user.click(within(dialog).getByRole('button', { name: 'Reset Link' }));
    expect(within(dialog).getByRole('heading', { name: 'Reset your calendar link?' })).toBeInTheDocument();
    expect(within(dialog).getByText(/stops working at once/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep Current Link' }));
    expect(await within(dialog).findByDisplayValue(FIRST)).toBeInTheDocument();
    expect(feedCalls(calls, 'POST')).toHaveLength(0);
    // Shown from what the first answer said: asking again would answer a null url.
    expect(feedCalls(calls, 'GET')).toHaveLength(1);

    await user.click(within(dialog).getByRole('button', { name: 'Reset Link' }));
    await user.click(within(dialog).getByRole('button', { name: 'Reset Link' }));

    expect(await within(dialog).findByDisplayValue(SECOND)).toBeInTheDocument();
    expect(feedCalls(calls, 'POST')).toHaveLength(1);
    expect(await screen.findByText('Calendar link reset')).toBeInTheDocument();
  });

  it('says a link exists when it was shown before (only its hash is kept), and a reset shows a new one', async () => {
    const { user } = renderCard({
      'GET /calendar/feed': { url: null },
      'POST /calendar/feed': { url: SECOND },
    });
    await user.click(await screen.findByRole('button', { name: 'Subscribe to my calendar' }));
    const dialog = await screen.findByRole('dialog');

    expect(await within(dialog).findByText(/You have a calendar link already/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'Calendar link' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reset Link' }));
    await user.click(within(dialog).getByRole('button', { name: 'Reset Link' }));

    expect(await within(dialog).findByDisplayValue(SECOND)).toBeInTheDocument();
  });

  it('says so when the link cannot be loaded, and tries again', async () => {
    let failing = true;
    const { user } = renderCard({
      'GET /calendar/feed': () =>
        failing ? { status: 503, body: { detail: 'The identity service is unavailable right now.' } } : { url: FIRST },
    });
    await user.click(await screen.findByRole('button', { name: 'Subscribe to my calendar' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The identity service is unavailable right now.');
    expect(screen.getByRole('button', { name: 'Reset Link' })).toBeDisabled();
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));

    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Calendar link' })).toHaveValue(FIRST));
  });

  it('keeps the old link and says why when a reset fails', async () => {
    const { user } = renderCard({
      'GET /calendar/feed': { url: FIRST },
      'POST /calendar/feed': { status: 503, body: { detail: 'The identity service is unavailable right now.' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Subscribe to my calendar' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue(FIRST);

    await user.click(within(dialog).getByRole('button', { name: 'Reset Link' }));
    await user.click(within(dialog).getByRole('button', { name: 'Reset Link' }));

    expect(await screen.findByText('The identity service is unavailable right now.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep Current Link' }));
    expect(await within(dialog).findByDisplayValue(FIRST)).toBeInTheDocument();
  });
});
