import * as React from 'react';
import { DialogForm, TextField, useSave } from '@/components/forms/dialog-form';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { MAX_REPORT_REASON, reportMessage } from '../api/report-message';
import type { Message } from '../api/types';

interface ReportMessageDialogProps {
  /** The message being reported; null: closed. */
  message: Message | null;
  onClose: () => void;
}

/** "Report this message": a reason the admin reads beside the message and its context. */
export function ReportMessageDialog({ message, onClose }: ReportMessageDialogProps) {
  return (
    <DialogWhileOpen open={message !== null} onOpenChange={(open) => !open && onClose()} className="sm:max-w-md">
      {(close) => (message ? <ReportForm message={message} close={close} /> : null)}
    </DialogWhileOpen>
  );
}

function ReportForm({ message, close }: { message: Message; close: () => void }) {
  const [reason, setReason] = React.useState('');
  const { saving, save } = useSave(close);
  const id = React.useId();
  return (
    <DialogForm
      title="Report this message"
      description={`An administrator will read the message from ${message.sender.full_name} and the messages around it.`}
      submitLabel="Report message"
      submitVariant="destructive"
      saving={saving}
      cancel={{ label: 'Cancel', onClick: close }}
      onSubmit={() =>
        void save(() => reportMessage(message.message_id, reason), 'Message reported', 'Failed to report the message')
      }
    >
      <blockquote className="max-h-32 overflow-y-auto whitespace-pre-wrap break-words rounded-md border-l-4 bg-navy-50 px-3 py-2 text-sm text-navy-800">
        {message.body}
      </blockquote>
      {/* One line: the API keeps a reason on one line. */}
      <TextField
        id={`${id}-reason`}
        label="Why are you reporting it?"
        value={reason}
        required
        maxLength={MAX_REPORT_REASON}
        onChange={(event) => setReason(event.target.value)}
      />
    </DialogForm>
  );
}
