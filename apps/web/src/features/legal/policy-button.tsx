import { lazy, Suspense, useState } from 'react';
import type { Policy } from './policies';

// Loaded on the first click: most visitors never open a policy.
const PolicyDialog = lazy(() => import('./policy-dialog'));

/** A button that opens a policy (Terms of Service, Refund Policy) in a dialog, wherever it is mentioned. */
export function PolicyButton({ policy, className }: { policy: Policy; className?: string }) {
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        onClick={(event) => {
          setOpener(event.currentTarget);
          setOpen(true);
        }}
      >
        {policy.title}
      </button>
      {opener && (
        <Suspense fallback={null}>
          <PolicyDialog policy={policy} opener={opener} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
