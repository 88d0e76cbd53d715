/** A header's navigation for every width: in a row from `sm` up, behind a Menu button on a phone. */
import { Menu } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';

interface HeaderNavProps {
  /** The landmark's name, e.g. "Main" or "Account". */
  label: string;
  /** `light` for a header on a dark background (the Menu button's colours). */
  tone?: 'dark' | 'light';
  /** The links and buttons; on a phone they are stacked, full width, in the menu sheet. */
  children: React.ReactNode;
}

/**
 * The header's links and buttons. From `sm` up they sit in a row; on a phone a 44 px Menu button
 * opens a sheet from the right holding the same items, each a full-width 44 px row, so nothing is
 * wider than the screen. Following a link in the sheet closes it.
 */
export function HeaderNav({ label, tone = 'dark', children }: HeaderNavProps) {
  const [open, setOpen] = React.useState(false);
  const closeOnLink = (event: React.MouseEvent) => {
    if ((event.target as HTMLElement).closest('a')) setOpen(false);
  };
  return (
    <>
      <nav aria-label={label} className="hidden min-w-0 items-center gap-2 sm:flex sm:gap-3">
        {children}
      </nav>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            aria-label="Menu"
            className={cn('size-11 sm:hidden [&_svg]:size-6', tone === 'light' && 'text-white hover:bg-white/10')}
          >
            <Menu aria-hidden="true" />
          </Button>
        </DialogTrigger>
        <DialogContent layout="sheet">
          <div className="pr-10">
            <DialogTitle>Menu</DialogTitle>
            <DialogDescription className="sr-only">{label} navigation</DialogDescription>
          </div>
          <nav
            aria-label={label}
            onClick={closeOnLink}
            className="flex flex-col items-stretch gap-3 [&>a]:h-11 [&>a]:justify-start [&>button]:h-11 [&>button]:justify-start"
          >
            {children}
          </nav>
        </DialogContent>
      </Dialog>
    </>
  );
}
