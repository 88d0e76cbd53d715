/**
 * A button that opens a dialog holding a form (`FormDialog`), or a dialog another button opens
 * (`DialogWhileOpen`). The form mounts only while the dialog is open (so
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
    <DialogWhileOpen
      open={open}
      onOpenChange={setOpen}
      trigger={
        <DialogTrigger asChild>
          <Button variant={variant} size="sm" disabled={disabled}>
            {icon ?? <Plus aria-hidden="true" />}
            {label}
          </Button>
        </DialogTrigger>
      }
    >
      {children}
    </DialogWhileOpen>
  );
}

interface DialogWhileOpenProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A `DialogTrigger` when the dialog has its own button. */
  trigger?: React.ReactNode;
  className?: string;
  children: (close: () => void) => React.ReactNode;
}

/** A dialog opened from elsewhere (a row's button): what it holds mounts only while it is open. */
export function DialogWhileOpen({ open, onOpenChange, trigger, className, children }: DialogWhileOpenProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger}
      <DialogContent className={className}>{open ? children(() => onOpenChange(false)) : null}</DialogContent>
    </Dialog>
  );
}
