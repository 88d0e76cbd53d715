import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

const CONTENT_LAYOUTS = {
  // A bottom sheet on a phone (full width, at most the screen's height, its own scrolling), a
  // centred card from `sm` up.
  dialog:
    'inset-x-0 bottom-0 max-h-[calc(100dvh-1rem)] w-full gap-4 overflow-y-auto overscroll-contain rounded-t-2xl border-t p-5 pb-[max(1.25rem,env(safe-area-inset-bottom))] data-[state=open]:animate-slide-up sm:inset-x-auto sm:bottom-auto sm:left-1/2 sm:top-1/2 sm:max-h-[calc(100dvh-2rem)] sm:w-[calc(100%-2rem)] sm:max-w-lg sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-lg sm:border sm:p-6 sm:data-[state=open]:animate-zoom-in',
  // A menu sliding in from the right edge (the phone's header menu).
  sheet:
    'inset-y-0 right-0 h-dvh w-72 max-w-[85vw] content-start gap-6 overflow-y-auto border-l p-5 data-[state=open]:animate-slide-in-right',
} as const;

export const DialogContent = React.forwardRef<
  React.ComponentRef<typeof DialogPrimitive.Content>,
  React.ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & {
    /** `dialog` (the default) or `sheet`, a side panel for menus. */
    layout?: keyof typeof CONTENT_LAYOUTS;
  }
>(({ className, children, layout = 'dialog', ...props }, ref) => (
  <DialogPrimitive.Portal>
    <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-navy-950/60 backdrop-blur-[2px] data-[state=open]:animate-fade-in" />
    <DialogPrimitive.Content
      ref={ref}
      className={cn('fixed z-50 grid bg-white shadow-xl', CONTENT_LAYOUTS[layout], className)}
      {...props}
    >
      {children}
      <DialogPrimitive.Close className="absolute right-2 top-2 inline-flex size-11 items-center justify-center rounded-md text-muted-foreground transition hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:right-3 sm:top-3 sm:size-9">
        <X className="size-5 sm:size-4" aria-hidden="true" />
        <span className="sr-only">Close</span>
      </DialogPrimitive.Close>
    </DialogPrimitive.Content>
  </DialogPrimitive.Portal>
));
DialogContent.displayName = 'DialogContent';

export function DialogHeader({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col gap-1.5 pr-10 text-left sm:pr-6', className)} {...props} />;
}

/**
 * The dialog's actions. On a phone they stay in reach at the bottom of the sheet while its content
 * scrolls, and each is a full-width, 44 px tall target.
 */
export function DialogFooter({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn(
        'sticky bottom-0 z-10 -mx-5 -mb-5 flex flex-col-reverse gap-2 border-t bg-white px-5 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] max-sm:[&>button]:h-11 sm:static sm:mx-0 sm:mb-0 sm:flex-row sm:justify-end sm:border-0 sm:p-0',
        className,
      )}
      {...props}
    />
  );
}

export const DialogTitle = React.forwardRef<
  React.ComponentRef<typeof DialogPrimitive.Title>,
  React.ComponentPropsWithoutRef<typeof DialogPrimitive.Title>
>(({ className, ...props }, ref) => (
  <DialogPrimitive.Title
    ref={ref}
    className={cn('text-lg font-bold leading-tight tracking-tight', className)}
    {...props}
  />
));
DialogTitle.displayName = 'DialogTitle';

export const DialogDescription = React.forwardRef<
  React.ComponentRef<typeof DialogPrimitive.Description>,
  React.ComponentPropsWithoutRef<typeof DialogPrimitive.Description>
>(({ className, ...props }, ref) => (
  <DialogPrimitive.Description
    ref={ref}
    className={cn('text-sm text-muted-foreground', className)}
    {...props}
  />
));
DialogDescription.displayName = 'DialogDescription';
