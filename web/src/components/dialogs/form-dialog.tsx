/**
 * A button that opens a dialog holding a form. The form mounts only while the dialog is open (so
 * each opening starts fresh) and is given `close` for when it has saved.
 */
import { Plus } from 'lucide-react';
import * as React from 'react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';

interface FormDialogProps {
  label: string;
  /** The trigger's icon; a plus unless told. */
  icon?: React.ReactNode;
  variant?: ButtonProps['variant'];
  disabled?: boolean;
  children: (close: () => void) => React.ReactNode;
}

export function FormDialog({ label, icon, variant = 'accent', disabled, children }: FormDialogProps) {
  const [open, setOpen] = React.useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={variant} size="sm" disabled={disabled}>
          {icon ?? <Plus aria-hidden="true" />}
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent>{open ? children(() => setOpen(false)) : null}</DialogContent>
    </Dialog>
  );
}
