/** The browser's local storage, or null where there is none (prerendering) or it is refused (private modes). */
export function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
