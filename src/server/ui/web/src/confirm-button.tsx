import { useEffect, useRef, useState } from "preact/hooks";

/** A destructive action asks once more in place: the first press shows the question, the second does it. */
export function ConfirmButton({ label, confirmLabel, question, onConfirm }: { label: string; confirmLabel: string; question: string; onConfirm: () => Promise<void> | void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  // The button pressed is gone: keyboard focus moves to the question's answer, not to the page's top.
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        class="danger"
        disabled={busy}
        ref={yes}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
