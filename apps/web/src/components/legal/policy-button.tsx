import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PolicyId } from './policies';

// Loaded on the first click: most visitors never open a policy.
const PolicyDialog = lazy(() => import('./policy-dialog'));

/** A button that opens a policy (Terms of Service, Refund Policy) in a dialog, wherever it is mentioned. */
export function PolicyButton({ policy, className }: { policy: PolicyId; className?: string }) {
  const { t } = useTranslation('legal');
  // Mounted on the first opening, then kept, so it can close with its animation and return focus.
  const [loaded, setLoaded] = useState(false);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        {t(`${policy}.title`)}
      </button>
      {loaded && (
        <Suspense fallback={null}>
          <PolicyDialog policy={policy} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
