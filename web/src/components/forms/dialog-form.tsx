/**
 * The form inside a dialog: its title and line, the fields, and one submit button that spins while
 * saving. `useSave` runs the write and says how it went; `TextField` and `TextAreaField` are
 * labelled inputs.
 */
import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';

interface DialogFormProps {
  title: string;
  description: React.ReactNode;
  submitLabel: string;
  saving: boolean;
  /** Holds the submit back without a spinner (an upload still under way). */
  waiting?: boolean;
  /** Leave checking to `onSubmit` (a number typed as "15.5" is read, not refused). */
  noValidate?: boolean;
  /** A way back beside the submit ("Keep Booking"), held while saving. */
  cancel?: { label: string; onClick: () => void };
  submitVariant?: 'accent' | 'destructive';
  onSubmit: () => void;
  children: React.ReactNode;
}

export function DialogForm({
  title,
  description,
  submitLabel,
  saving,
  waiting,
  noValidate,
  cancel,
  submitVariant = 'accent',
  onSubmit,
  children,
}: DialogFormProps) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      noValidate={noValidate}
      className="grid gap-4"
    >
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {children}
      <DialogFooter>
        {cancel ? (
          <Button type="button" variant="outline" onClick={cancel.onClick} disabled={saving}>
            {cancel.label}
          </Button>
        ) : null}
        <Button type="submit" variant={submitVariant} disabled={saving || waiting} className={cn(saving && 'cursor-wait')}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * `save(write, done, failed)`: runs the write, then toasts `done` and calls `onSaved`; or toasts
 * the server's detail (else `failed`) and lets the person try again. `saving` is true meanwhile.
 */
export function useSave(onSaved: () => void) {
  const [saving, setSaving] = React.useState(false);
  async function save(write: () => Promise<unknown>, done: string, failed: string) {
    setSaving(true);
    try {
      await write();
      toast.success(done);
      onSaved();
    } catch (error) {
      toast.error(errorMessage(error, failed));
      setSaving(false);
    }
  }
  return { saving, save };
}

interface TextFieldProps extends React.InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
}

/** A label over an input, tied by `id`. */
export function TextField({ id, label, ...props }: TextFieldProps) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...props} />
    </div>
  );
}

interface TextAreaFieldProps extends React.TextareaHTMLAttributes<HTMLTextAreaElement> {
  id: string;
  label: string;
}

/** A label over a text area, tied by `id`. */
export function TextAreaField({ id, label, ...props }: TextAreaFieldProps) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea id={id} {...props} />
    </div>
  );
}
