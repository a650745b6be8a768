/**
 * A short two-note chime made with the Web Audio API: no audio file to download or to allow in the CSP.
 * Browsers keep audio suspended until the user has interacted with the page, so the context is resumed on
 * the first interaction; a code arriving before that one is announced by the title (and notification) only.
 */
let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (!context && typeof AudioContext === 'function') context = new AudioContext();
  return context;
}

/** Resumes the audio on the user's first interaction, which browsers require before any sound. */
export function unlockAudioOnInteraction(): () => void {
  const events = ['pointerdown', 'keydown'] as const;
  const unlock = () => {
    void audioContext()?.resume();
    stop();
  };
  const stop = () => {
    for (const type of events) window.removeEventListener(type, unlock, true);
  };
  for (const type of events) window.addEventListener(type, unlock, true);
  return stop;
}

/** Two rising notes, a tenth of a second each, soft at both ends so they do not click. */
const NOTES_HZ = [880, 1320];
const NOTE_SECONDS = 0.12;
const VOLUME = 0.15;

export function playChime(): void {
  const audio = audioContext();
  if (!audio) return;
  if (audio.state === 'suspended') void audio.resume();
  const start = audio.currentTime;
  NOTES_HZ.forEach((frequency, index) => {
    const at = start + index * NOTE_SECONDS;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(VOLUME, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_SECONDS);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + NOTE_SECONDS);
  });
}
