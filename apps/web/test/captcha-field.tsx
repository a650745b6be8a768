// The real widget solves a proof of work in Web Workers, which happy-dom has not; the browser tests use it.
// Here a stand-in reports a solved payload when its button is pressed: `vi.mock('./captcha-field', () =>
// import('@test/captcha-field'))`.
export function CaptchaField({ onChange }: { onChange(payload: string): void }) {
  return (
    <button type="button" onClick={() => onChange('solved-payload')}>
      Solve captcha
    </button>
  );
}
