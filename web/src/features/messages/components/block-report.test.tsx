import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_ID, COACH_ID, message, threadApi } from '@/testing/messages-fixtures';
import { renderApp } from '@/testing/test-utils';

const THREAD = `/messages/${CONVERSATION_ID}`;

describe('Blocking and reporting in a thread', () => {
  it('blocks the other person once confirmed', async () => {
    let blocked = 0;
    const { user } = renderApp(THREAD, {
      user: 'client',
      api: threadApi([message()], {}, {
        [`POST /users/${COACH_ID}/block`]: () => {
          blocked += 1;
          return { status: 204 };
        },
      }),
    });

    await user.click(await screen.findByRole('button', { name: 'Block' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block Carla Coach?' });
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));

    await waitFor(() => expect(blocked).toBe(1));
    expect(await screen.findByText('Carla Coach blocked')).toBeInTheDocument();
  });

  it('takes no new message once blocked, and unblocks', async () => {
    let unblocked = 0;
    const { user } = renderApp(THREAD, {
      user: 'client',
      api: threadApi([message()], { blocked: 'by_me', can_send: false }, {
        [`DELETE /users/${COACH_ID}/block`]: () => {
          unblocked += 1;
          return { status: 204 };
        },
      }),
    });

    expect(await screen.findByTestId('cannot-send')).toHaveTextContent(
      'You blocked Carla Coach. Unblock them to send a message.',
    );
    expect(screen.queryByRole('textbox', { name: 'Message Carla Coach' })).toBeNull();
    // What was said stays readable.
    expect(screen.getByRole('list', { name: 'Messages with Carla Coach' })).toHaveTextContent('See you at 6 pm');

    await user.click(screen.getByRole('button', { name: 'Unblock' }));
    await waitFor(() => expect(unblocked).toBe(1));
  });

  it('says so when the other person blocked you', async () => {
    renderApp(THREAD, { user: 'client', api: threadApi([message()], { blocked: 'by_them', can_send: false }) });

    expect(await screen.findByTestId('cannot-send')).toHaveTextContent('Carla Coach is not taking messages from you.');
    expect(screen.queryByRole('button', { name: 'Block' })).toBeInTheDocument();
  });

  it('reports a message with a reason, and only the other person’s', async () => {
    let report: unknown;
    const { user } = renderApp(THREAD, {
      user: 'client',
      api: threadApi(
        [message({ message_id: 'm-2', body: 'My reply', mine: true }), message({ message_id: 'm-1', body: 'Pay me in cash.' })],
        {},
        {
          'POST /messages/m-1/report': ({ body }: { body: unknown }) => {
            report = body;
            return { status: 201, body: { report_id: 'r-1' } };
          },
        },
      ),
    });

    const reports = await screen.findAllByRole('button', { name: /^Report message from/ });
    expect(reports).toHaveLength(1);
    await user.click(reports[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Report this message' });
    expect(dialog).toHaveTextContent('Pay me in cash.');
    await user.type(within(dialog).getByRole('textbox', { name: 'Why are you reporting it?' }), 'Asks for cash');
    await user.click(within(dialog).getByRole('button', { name: 'Report message' }));

    await waitFor(() => expect(report).toEqual({ reason: 'Asks for cash' }));
    expect(await screen.findByText('Message reported')).toBeInTheDocument();
  });

  it('says so when the message was already reported', async () => {
    const { user } = renderApp(THREAD, {
      user: 'client',
      api: threadApi([message()], {}, {
        'POST /messages/m-1/report': { status: 409, body: { detail: 'You already reported this message.' } },
      }),
    });

    await user.click(await screen.findByRole('button', { name: /^Report message from Carla Coach/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this message' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Why are you reporting it?' }), 'Spam');
    await user.click(within(dialog).getByRole('button', { name: 'Report message' }));

    expect(await screen.findByText('You already reported this message.')).toBeInTheDocument();
  });

  it('keeps a deleted account’s messages, read as "Deleted user", with no one left to block', async () => {
    const gone = { user_id: null, full_name: 'Deleted user' };
    renderApp(THREAD, {
      user: 'client',
      api: threadApi([message({ sender: gone, body: 'See you Tuesday.' })], {
        other: { ...gone, role: null },
        can_send: false,
      }),
    });

    const thread = await screen.findByRole('list', { name: 'Messages with Deleted user' });
    expect(thread).toHaveTextContent('Deleted user: See you Tuesday.');
    expect(screen.queryByRole('button', { name: 'Block' })).toBeNull();
  });
});
