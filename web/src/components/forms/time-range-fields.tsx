/** "Start Time" and "End Time" side by side, as every availability form asks them. */
import { TextField } from './dialog-form';

interface TimeRangeFieldsProps {
  /** `slot` gives the ids `slot-start` and `slot-end`. */
  idPrefix: string;
  start: string;
  end: string;
  onStart: (value: string) => void;
  onEnd: (value: string) => void;
}

export function TimeRangeFields({ idPrefix, start, end, onStart, onEnd }: TimeRangeFieldsProps) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <TextField id={`${idPrefix}-start`} label="Start Time" type="time" value={start} onChange={(e) => onStart(e.target.value)} />
      <TextField id={`${idPrefix}-end`} label="End Time" type="time" value={end} onChange={(e) => onEnd(e.target.value)} />
    </div>
  );
}
