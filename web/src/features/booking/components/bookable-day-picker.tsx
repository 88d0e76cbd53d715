import * as React from 'react';
import { DayButton, DayPicker, type DayButtonProps, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { formatDisplayDate, formatLocalDate, WEEKDAYS } from '@/lib/dates';
import type { DayStatus } from '../utils/calendar-days';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * A day's spoken name starts with the number the button shows (WCAG 2.5.3, label in name):
 * "25 November 2026, Wednesday", then ", today" and ", selected" when they hold. Read from the
 * local calendar fields, as the picker's days are local midnights.
 */
function dayButtonLabel(date: Date, modifiers: Modifiers) {
  const weekday = WEEKDAYS[(date.getDay() + 6) % 7];
  let label = `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}, ${weekday}`;
  if (modifiers.today) label += ', today';
  if (modifiers.selected) label += ', selected';
  return label;
}

/** "Fri, Mar 14, 2025 cannot be booked: Fully booked". */
export const refusalNote = (day: Date, reason: string) =>
  `${formatDisplayDate(formatLocalDate(day))} cannot be booked: ${reason}`;

/** Why each shown day cannot be booked, for the day buttons (kept in context so the button
 * component stays the same one, and a focused day keeps its focus when the calendar changes). */
const ReasonOf = React.createContext<(day: Date) => string | undefined>(() => undefined);

/** A day button that says why on hover (title) and, refused, stays focusable (aria-disabled),
 * struck through so it reads apart from the days that are no occurrence at all. */
function ReasonedDayButton(props: DayButtonProps) {
  const reason = React.useContext(ReasonOf)(props.day.date);
  return (
    <DayButton
      {...props}
      title={reason ?? props.title}
      aria-disabled={props['aria-disabled'] || (reason !== undefined ? true : undefined)}
      className={reason ? `${props.className ?? ''} cursor-not-allowed line-through` : props.className}
    />
  );
}

const COMPONENTS = { DayButton: ReasonedDayButton };

interface BookableDayPickerProps {
  /** The month shown (controlled, so its calendar can be fetched). */
  month: Date;
  onMonthChange: (month: Date) => void;
  startMonth: Date;
  endMonth: Date;
  selected: Date | undefined;
  /** Called for open days only: a refused day cannot be chosen. */
  onSelect: (day: Date) => void;
  /** How each shown day stands (see DayStatus). */
  status: (day: Date) => DayStatus;
  /** The shown month's calendar is still coming: its days are not open yet. */
  loading: boolean;
  /** A line under the calendar when no day is being pointed at (a failure to read it). */
  notice?: string;
}

/**
 * The booking and reschedule dialogs' calendar. Open days can be picked; a refused day (an
 * occurrence the server will not book: "Fully booked", "Coach away", "Too soon") is
 * aria-disabled but focusable, says why in its name and title, and the line under the calendar
 * (a live region) says why for the day hovered or focused; other days are disabled.
 */
export function BookableDayPicker({
  month,
  onMonthChange,
  startMonth,
  endMonth,
  selected,
  onSelect,
  status,
  loading,
  notice,
}: BookableDayPickerProps) {
  const [hovered, setHovered] = React.useState<Date>();
  const [focused, setFocused] = React.useState<Date>();
  const reasonOf = React.useCallback((day: Date) => {
    const s = status(day);
    return s.kind === 'refused' ? s.reason : undefined;
  }, [status]);

  const pointed = [hovered, focused].find((day) => day && reasonOf(day));
  const line = pointed
    ? refusalNote(pointed, reasonOf(pointed) as string)
    : loading
      ? "Loading the coach's calendar…"
      : (notice ?? '');

  // The shown month's refused dates, listed for a reader who does not hover (the first six).
  const listed: [Date, string][] = [];
  const days = new Date(month.getFullYear(), month.getMonth() + 1, 0).getDate();
  for (let d = 1; d <= days && listed.length < 6; d += 1) {
    const day = new Date(month.getFullYear(), month.getMonth(), d);
    const reason = reasonOf(day);
    if (reason) listed.push([day, reason]);
  }

  return (
    <>
      <div className="flex justify-center">
        <ReasonOf.Provider value={reasonOf}>
          <DayPicker
            mode="single"
            // A second click on the chosen day keeps it chosen rather than leaving no date.
            required
            selected={selected}
            // A refused day is focusable, so it can be clicked: it stays unchosen (the line says why).
            onSelect={(_next: Date | undefined, day: Date, modifiers: Modifiers) => {
              if (!modifiers.refused) onSelect(day);
            }}
            month={month}
            onMonthChange={onMonthChange}
            startMonth={startMonth}
            endMonth={endMonth}
            disabled={(day: Date) => status(day).kind === 'closed'}
            modifiers={{ refused: (day: Date) => status(day).kind === 'refused' }}
            modifiersClassNames={{ refused: 'rdp-disabled' }}
            onDayMouseEnter={(day: Date) => setHovered(day)}
            onDayMouseLeave={() => setHovered(undefined)}
            onDayFocus={(day: Date) => setFocused(day)}
            onDayBlur={() => setFocused(undefined)}
            weekStartsOn={1}
            labels={{
              labelDayButton: (day: Date, modifiers: Modifiers) => {
                const why = reasonOf(day);
                return why ? `${dayButtonLabel(day, modifiers)}, ${why}` : dayButtonLabel(day, modifiers);
              },
            }}
            components={COMPONENTS}
          />
        </ReasonOf.Provider>
      </div>
      {/* The dialog's width, and two lines kept whether it says anything or not: the dialog
          scrolls on a small screen, and content changing height as the pointer crosses the days
          would move the day under it between press and release. Its text node is never removed
          either (a space when there is nothing to say): Radix's focus trap takes a node removed
          while focus passes from one day to another for the focused element going, and pulls
          focus to the dialog. */}
      <p
        role="status"
        aria-live="polite"
        data-testid="day-note"
        className="-mt-2 min-h-10 text-center text-sm text-navy-700"
      >
        {line || '\u00a0'}
      </p>
      {listed.length > 0 ? (
        <ul aria-label="Dates not available" className="grid gap-0.5 text-xs text-muted-foreground">
          {listed.map(([day, why]) => (
            <li key={day.getTime()}>
              {formatDisplayDate(formatLocalDate(day))}: {why}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
