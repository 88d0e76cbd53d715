import { Loader2, Trash2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { deleteUser } from '../api/delete-user';
import type { User } from '../api/types';
import { RoleBadge } from './role-badge';

/** "Confirm Deletion": who is about to go, with Cancel and Delete User. */
export function DeleteUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [deleting, setDeleting] = React.useState(false);

  async function onDelete() {
    if (!user) return;
    setDeleting(true);
    try {
      await deleteUser(user.user_id);
      toast.success('User deleted successfully');
      onClose();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to delete user'));
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Confirm Deletion</DialogTitle>
          <DialogDescription>This removes the user and ends their sessions. It cannot be undone.</DialogDescription>
        </DialogHeader>
        {user ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg bg-muted/60 p-4 text-sm">
            <dt className="text-muted-foreground">Name</dt>
            <dd className="font-semibold text-navy-900">{user.full_name}</dd>
            <dt className="text-muted-foreground">Email</dt>
            <dd className="break-all text-navy-900">{user.email}</dd>
            <dt className="text-muted-foreground">Role</dt>
            <dd>
              <RoleBadge role={user.role} />
            </dd>
          </dl>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="destructive" disabled={deleting} onClick={() => void onDelete()}>
            {deleting ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
            Delete User
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
