import {
  ADMIN_ROLE,
  apiPaths,
  IDLE_LOGOUT_MS,
  type Language,
  type SessionEndReason,
} from '@simcode/contract';
import { useSyncExternalStore } from 'react';
import { publicPath } from '@/i18n';

/** Local storage keys (the spec names 'token'). */
const TOKEN_KEY = 'token';
const LAST_ACTIVITY_KEY = 'lastActivityAt';
const SESSION_EVENT = 'simcode:session';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) ?? null;
}

export function setToken(token: string): void {
  storage()?.setItem(TOKEN_KEY, token);
  markActivity();
  window.dispatchEvent(new Event(SESSION_EVENT));
}

export function clearToken(): void {
  storage()?.removeItem(TOKEN_KEY);
  storage()?.removeItem(LAST_ACTIVITY_KEY);
  window.dispatchEvent(new Event(SESSION_EVENT));
}

/**
 * Logout: the server revokes the token (so a copy of it, in another tab or stolen, stops working too), then
 * the page forgets it and starts again from the home page with a full reload. A failed call still logs out
 * here: the token then ends at its expiry.
 */
export async function logout(): Promise<void> {
  const token = getToken();
  if (token) {
    await fetch(apiPaths.auth.logout, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      keepalive: true,
    }).catch(() => undefined);
  }
  signOutHere();
}

/**
 * Saves a language chosen with the switch to the signed-in account, so e-mails and other browsers follow
 * it. Sent with keepalive: the page is about to load again in that language.
 */
export function saveAccountLanguage(language: Language): void {
  const token = getToken();
  if (!token) return;
  void fetch(apiPaths.account.language, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ language }),
    keepalive: true,
  }).catch(() => undefined);
}

/** The end of a sign-out once the server has ended the token (or all of them): forget it, start from home. */
export function signOutHere(): void {
  clearToken();
  window.location.assign(publicPath('/'));
}

/**
 * The session is over (idle, revoked, expired): forget the token and ask for a new sign-in, saying why when
 * the server did (a password changed on another device).
 */
export function endSession(reason?: SessionEndReason): void {
  clearToken();
  window.location.assign(publicPath(reason ? `/login?ended=${reason}` : '/login'));
}

/**
 * The role claim of the stored token, for choosing what to show. Never a security decision:
 * the server checks the role from its database on every request.
 */
function roleOf(token: string | null): number | null {
  if (!token) return null;
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/')));
    return typeof json.role === 'number' ? json.role : null;
  } catch {
    return null;
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(SESSION_EVENT, onChange);
  // Another tab signing in or out changes this one too.
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(SESSION_EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

export interface Session {
  token: string | null;
  isSignedIn: boolean;
  isAdmin: boolean;
}

/** The stored session, re-rendering when it changes here or in another tab. Signed out on the server. */
export function useSession(): Session {
  const token = useSyncExternalStore(subscribe, getToken, () => null);
  return { token, isSignedIn: token !== null, isAdmin: roleOf(token) === ADMIN_ROLE };
}

export function markActivity(now: number = Date.now()): void {
  storage()?.setItem(LAST_ACTIVITY_KEY, String(now));
}

/** True when the stored token has seen no activity (in any tab) for the idle limit. */
export function isIdleExpired(now: number = Date.now()): boolean {
  const last = Number(storage()?.getItem(LAST_ACTIVITY_KEY) ?? Number.NaN);
  return Number.isFinite(last) && now - last >= IDLE_LOGOUT_MS;
}
