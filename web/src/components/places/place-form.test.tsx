import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { PlaceForm } from './place-form';

function renderForm(withCourtNumber: boolean) {
  const create = vi.fn(async () => ({}));
  const onSaved = vi.fn();
  render(
    <Dialog open>
      <DialogContent>
        <PlaceForm
          idPrefix="place"
          description="A place."
          namePlaceholder="Main Hall"
          withCourtNumber={withCourtNumber}
          create={create}
          onSaved={onSaved}
        />
      </DialogContent>
    </Dialog>,
  );
  return { create, onSaved, user: userEvent.setup() };
}

describe('the shared Add Location form', () => {
  it("sends a gym's place with empty coordinates and zone as null, and no court number", async () => {
    const { create, onSaved, user } = renderForm(false);
    expect(screen.queryByLabelText('Court Number')).not.toBeInTheDocument();
    const typed = { Name: 'Main Hall', Address: '1 Court Way', City: 'Austin', State: 'TX' };
    for (const [label, text] of Object.entries(typed)) await user.type(screen.getByLabelText(label), text);
    await user.click(screen.getByRole('button', { name: 'Save Location' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [name, address, city, state] = Object.values(typed);
    const nothing = { latitude: null, longitude: null, time_zone: null };
    expect(create).toHaveBeenCalledWith({ name, address, city, state, ...nothing });
  });

  it("sends a coach's court number and coordinates, and refuses an unknown zone before sending", async () => {
    const { create, user } = renderForm(true);
    await user.type(screen.getByLabelText('Name'), 'Eastside Rec');
    await user.type(screen.getByLabelText('Court Number'), '2');
    await user.type(screen.getByLabelText('Latitude (optional)'), '30.26');
    await user.type(screen.getByLabelText('Time zone (optional)'), 'Mars/Olympus');
    await user.click(screen.getByRole('button', { name: 'Save Location' }));
    expect(await screen.findByText(/Choose a time zone from the list/)).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Time zone (optional)'));
    await user.type(screen.getByLabelText('Time zone (optional)'), 'America/Chicago');
    await user.click(screen.getByRole('button', { name: 'Save Location' }));
    await waitFor(() => expect(create).toHaveBeenCalled());
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ court_number: '2', latitude: 30.26, longitude: null, time_zone: 'America/Chicago' }),
    );
  });
});
